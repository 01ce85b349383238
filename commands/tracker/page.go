package tracker

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// /init page, and the fight's web page (fightPage, which bot/web.go
// serves): the same store, and the same encounter.View and journal
// reading as /init's answers, so the players' page shows what players
// read in Discord (no hidden combatant, no secret change).

// pageLog is how many of the journal's last entries the page shows.
const pageLog = 5

func (h *Tracker) initPage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	return h.PageLinks(ctx, req, db.FightScope(req.ChannelID), "fight", func() error {
		_, err := h.Encounters.Encounter(ctx, req.ChannelID)
		return initError(err)
	})
}

// FightPage is the channel's fight as a reader may see it: /init's
// result (the encounter.View and the system), the last entries of its log
// the reader may read, and Seq, the journal's newest entry, which moves
// with every change (the page's live updates compare it).
type FightPage struct {
	InitResult
	GM  bool
	Seq int64
}

// LoadFightPage reads the fight in channelID as the GM (forGM) or the
// players see it; a channel with no fight is db.ErrNotFound.
func LoadFightPage(ctx context.Context, store kit.EncounterStore, channelID string, forGM bool) (FightPage, error) {
	enc, err := store.Encounter(ctx, channelID)
	if err != nil {
		return FightPage{}, fmt.Errorf("fight page of channel %s: %w", channelID, err)
	}
	entries, err := store.EncounterLog(ctx, channelID, -1)
	if err != nil {
		return FightPage{}, fmt.Errorf("fight page of channel %s: log: %w", channelID, err)
	}
	p := FightPage{InitResult: InitResult{View: enc.State.View(forGM), System: enc.State.System}, GM: forGM, Seq: enc.Seq}
	_, p.Log = logEntries(entries, forGM, pageLog)
	return p, nil
}

// FightSeq is the journal's newest entry of the fight in channelID: what
// the page's live updates watch.
func FightSeq(ctx context.Context, store kit.EncounterStore, channelID string) (int64, error) {
	enc, err := store.Encounter(ctx, channelID)
	if err != nil {
		return 0, err
	}
	return enc.Seq, nil
}

//go:embed web
var webFiles embed.FS

// fightTemplates are the fight page's ("fight"); its pointers are read
// with deref, int and str.
var fightTemplates = kit.PageTemplates(template.FuncMap{
	"deref": func(b *bool) bool { return b != nil && *b },
	"int": func(n *int) int {
		if n == nil {
			return 0
		}
		return *n
	},
	"str": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
}, webFiles, "web/*.html")

// fightPage is the web page of a channel's fight (db.FightScope), a
// kit.LivePage: it follows the fight's journal.
type fightPage struct{ store kit.EncounterStore }

func (fightPage) Serves(scope string) bool {
	_, ok := db.FightChannel(scope)
	return ok
}

func (f fightPage) Render(ctx context.Context, b *bytes.Buffer, p db.Page) error {
	channel, _ := db.FightChannel(p.Scope)
	fp, err := LoadFightPage(ctx, f.store, channel, p.Audience == db.AudienceGM)
	if err != nil {
		return err
	}
	if err := fightTemplates.ExecuteTemplate(b, "fight", fp); err != nil {
		return fmt.Errorf("render fight: %w", err)
	}
	return nil
}

func (f fightPage) Seq(ctx context.Context, p db.Page) (int64, error) {
	channel, _ := db.FightChannel(p.Scope)
	return FightSeq(ctx, f.store, channel)
}
