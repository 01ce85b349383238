package tracker

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"slices"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
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
// with every change (the page's live updates compare it). Next is who is
// up after the turn under way, of those the reader sees ("" when no one
// or unknown); Title the tab's title, with the round and the turn.
type FightPage struct {
	InitResult
	GM    bool
	Seq   int64
	Next  string
	Title string
}

// LoadFightPage reads the fight in channelID as the GM (forGM) or the
// players see it, the health words measured on the damage track of the
// policy ps has for its system; a channel with no fight is
// db.ErrNotFound.
func LoadFightPage(ctx context.Context, store kit.EncounterStore, ps encounter.Policies, channelID string, forGM bool) (FightPage, error) {
	enc, err := store.Encounter(ctx, channelID)
	if err != nil {
		return FightPage{}, fmt.Errorf("fight page of channel %s: %w", channelID, err)
	}
	entries, err := store.EncounterLog(ctx, channelID, -1)
	if err != nil {
		return FightPage{}, fmt.Errorf("fight page of channel %s: log: %w", channelID, err)
	}
	p := FightPage{InitResult: InitResult{View: ViewOf(ps, enc.State, forGM), System: enc.State.System}, GM: forGM, Seq: enc.Seq}
	_, p.Log = logEntries(entries, forGM, pageLog)
	p.Next = upNext(p.View)
	p.Title = fightTitle(p.View)
	return p, nil
}

// upNext is the combatant whose turn comes after the one under way, as
// the order of v stands: the next one in it that is not defeated,
// delaying or skipping its turn, into the next round if need be. It is ""
// before the fight, after it, when the turn under way is one the reader
// may not see, and when no one else can act.
func upNext(v encounter.View) string {
	if v.Turn == nil || v.Ended {
		return ""
	}
	cur := slices.IndexFunc(v.Combatants, func(c encounter.CombatantView) bool { return c.Name == *v.Turn })
	if cur < 0 {
		return ""
	}
	for i := 1; i < len(v.Combatants); i++ {
		c := v.Combatants[(cur+i)%len(v.Combatants)]
		if !c.Defeated && !c.Delayed && !c.Skipping {
			return c.Name
		}
	}
	return ""
}

// fightTitle is the tab's title: the round and whose turn it is, or that
// the fight has ended or not begun.
func fightTitle(v encounter.View) string {
	switch {
	case v.Ended:
		return "Fight · ended"
	case v.Turn == nil:
		return "Fight · not begun"
	}
	return fmt.Sprintf("Round %d · %s · Fight", v.Round, turnWords(*v.Turn))
}

// turnWords says whose turn it is: "Goblin's turn", or a hidden
// combatant's.
func turnWords(turn string) string {
	if turn == encounter.HiddenTurn {
		return "a hidden combatant's turn"
	}
	return turn + "'s turn"
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
	"turn":  turnWords,
	// half is the boundary of "bloodied" on a track's meter.
	"half": func(m int) float64 { return float64(m) / 2 },
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
type fightPage struct {
	store    kit.EncounterStore
	policies encounter.Policies
}

func (fightPage) Serves(scope string) bool {
	_, ok := db.FightChannel(scope)
	return ok
}

func (f fightPage) Render(ctx context.Context, b *bytes.Buffer, p db.Page) error {
	channel, _ := db.FightChannel(p.Scope)
	fp, err := LoadFightPage(ctx, f.store, f.policies, channel, p.Audience == db.AudienceGM)
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
