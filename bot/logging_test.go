package bot

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// discordgo prints whole gateway events in some warnings; their interaction
// tokens and user input must not reach the log.
func TestDiscordLogsHideEvents(t *testing.T) {
	var buf bytes.Buffer
	old := discordgo.Logger
	t.Cleanup(func() { discordgo.Logger = old })
	RouteDiscordLogs(slog.New(slog.NewTextHandler(&buf, nil)))
	ev := &discordgo.Event{Type: "INTERACTION_CREATE", RawData: []byte(`{"token":"secret-interaction-token"}`)}
	discordgo.Logger(discordgo.LogWarning, 0, "Expected READY/RESUMED, instead got:\n%#v\n", ev)
	if out := buf.String(); strings.Contains(out, "secret") || strings.Contains(out, "RawData") || !strings.Contains(out, "Expected READY/RESUMED") {
		t.Errorf("log line: %s", out)
	}
}
