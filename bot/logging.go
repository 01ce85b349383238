package bot

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// RouteDiscordLogs sends discordgo's own log lines (reconnects, gateway
// errors) to log, at the matching level, instead of the standard logger.
// discordgo keeps its logger in a package variable, so this is process-wide:
// call it once, from main.
func RouteDiscordLogs(log *slog.Logger) {
	discordgo.Logger = func(msgL, caller int, format string, a ...any) {
		level := slog.LevelDebug
		switch msgL {
		case discordgo.LogError:
			level = slog.LevelError
		case discordgo.LogWarning:
			level = slog.LevelWarn
		case discordgo.LogInformational:
			level = slog.LevelInfo
		}
		msg := fmt.Sprintf(format, a...)
		// Some lines print a whole gateway event ("Expected READY/RESUMED,
		// instead got: &discordgo.Event{... RawData: ...}"): an
		// interaction's token and what the user typed. Keep the words only.
		if i := strings.Index(msg, "&discordgo.Event{"); i >= 0 {
			msg = msg[:i] + "(event not shown)"
		}
		log.Log(context.Background(), level, msg, "source", "discordgo")
	}
}
