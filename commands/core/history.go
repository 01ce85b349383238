package core

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// visibilityMarks mark in /history a roll not everyone sees.
var visibilityMarks = map[kit.Visibility]string{kit.Self: " 🔒", kit.GMRoll: " 🔒 gm", kit.Blind: " 🙈 blind"}

const (
	defaultHistory = 10
	maxHistory     = 25
)

// HistoryResult is the console's `result` for /history.
type HistoryResult struct {
	Rolls []HistoryEntry `json:"rolls"`
}

// HistoryEntry is one roll of the log.
type HistoryEntry struct {
	ID      string `json:"id"`
	User    string `json:"user"`
	Expr    string `json:"expr"`
	Total   int    `json:"total"`
	Private bool   `json:"private,omitempty"`
	// Visibility is set for a roll not everyone sees: self, gm or blind.
	Visibility string `json:"visibility,omitempty"`
	// Hidden is set for a blind roll shown to its roller, who may know it
	// was made but not its total (Total is then 0).
	Hidden bool      `json:"hidden,omitempty"`
	At     time.Time `json:"at"`
	// Stats are the values of the names the roll read ("som" in
	// "1d20 + som"), and Character whose sheet they came from.
	Stats     map[string]int `json:"stats,omitempty"`
	Character string         `json:"character,omitempty"`
	// DiceGiven is set for a roll of dice typed in (`dice:`), not rolled
	// by Tablehand: the values given.
	DiceGiven string `json:"dice_given,omitempty"`
}

// history lists the channel's recent rolls. The answer is private: it can
// show the asker's own private rolls, and a list does not clutter the table.
func (h *handlers) history(ctx context.Context, req *kit.Request) (kit.Response, error) {
	count := int64(defaultHistory)
	if n, ok := req.Options.Int("count"); ok {
		if n < 1 || n > maxHistory {
			return kit.Response{}, kit.Errorf("count must be 1 to %d, not %d (example: /history count:5)", maxHistory, n)
		}
		count = n
	}
	who := req.Options.String("user")
	rolls, err := h.Rolls.RecentRolls(ctx, req.ChannelID, who, db.Viewer{ID: req.User.ID, GM: req.GM}, int(count))
	if err != nil {
		return kit.Response{}, err
	}
	result := HistoryResult{Rolls: []HistoryEntry{}}
	if len(rolls) == 0 {
		// Others' private rolls are not counted: "no rolls" would not be
		// true, and "some you cannot see" would tell of them.
		msg := "There are no rolls you can see in this channel yet: try /roll 1d20."
		if who != "" {
			msg = "There are no rolls of <@" + who + "> you can see in this channel: /history lists everyone's."
		}
		return kit.Response{Content: msg, Ephemeral: true, Result: result}, nil
	}
	var b strings.Builder
	b.WriteString("**Recent rolls here** (newest first)\n")
	for _, r := range rolls {
		e := HistoryEntry{ID: r.Code, User: r.UserName, Expr: r.Expr, Total: r.Total, Private: r.Private, At: r.CreatedAt}
		vis := kit.Visibility(r.Visibility)
		mark, secret := visibilityMarks[vis]
		if secret {
			e.Visibility = string(vis)
		}
		total, stats := strconv.Itoa(r.Total), ""
		if vis == kit.Blind && !req.GM {
			// A blind roll's roller knows it was rolled, never its result.
			total, e.Total, e.Hidden = "?", 0, true
		} else if st, err := statsOf(r.Detail); err == nil && st.look != nil {
			// (The detail of a rules command's roll has a shape of its
			// own, without stats: it fails to read as a /roll's.)
			e.Stats, e.Character = st.values, st.character
			stats = " (" + st.list + ")"
			if st.character != "" {
				stats = " (" + kit.EscapeMarkdown(st.character) + ": " + st.list + ")"
			}
		}
		if e.DiceGiven = kit.DiceGivenOf(r.Detail); e.DiceGiven != "" && !e.Hidden {
			mark += " ✋ dice given: " + e.DiceGiven
		} else {
			e.DiceGiven = ""
		}
		fmt.Fprintf(&b, "`%s` %s **%s** `%s`%s = **%s**%s\n", r.Code, kit.Timestamp(r.CreatedAt, "R"), kit.EscapeMarkdown(r.UserName), kit.CodeSafe(r.Expr), stats, total, mark)
		result.Rolls = append(result.Rolls, e)
	}
	return kit.Response{Content: b.String(), Ephemeral: true, Result: result}, nil
}
