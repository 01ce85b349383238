package bot

import (
	"bytes"
	"fmt"
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
	// discordgo prints the payload as Go bytes, so look for those, not the text.
	raw := fmt.Sprintf("%#v", ev.RawData)
	if out := buf.String(); strings.Contains(out, raw[len(raw)-40:]) || strings.Contains(out, "RawData") || !strings.Contains(out, "Expected READY/RESUMED") {
		t.Errorf("log line: %s", out)
	}
}
