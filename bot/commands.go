package bot

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/tablehand/tablehand/commands/kit"
)

// WriteCommands prints the command definitions as the JSON array that serve
// sends in its bulk overwrite, byte for byte, followed by a newline.
func WriteCommands(w io.Writer, router *kit.Router) error {
	body, err := json.Marshal(ApplicationCommands(router.Commands()))
	if err != nil {
		return fmt.Errorf("encode commands: %w", err)
	}
	if _, err := w.Write(append(body, '\n')); err != nil {
		return fmt.Errorf("write commands: %w", err)
	}
	return nil
}
