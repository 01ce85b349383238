package tracker

import (
	"bytes"
	"context"
	"embed"
	"errors"
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

// initPage gives the links of the channel's running fight: they open
// that fight and no other, and say so once it has ended.
func (h *Tracker) initPage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	if h.PublicURL == "" || h.Pages == nil {
		return kit.Response{}, kit.NoPublicURL // before the fight: as PageLinks does
	}
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	return h.PageLinks(ctx, req, db.FightScope(req.ChannelID, enc.ID), "fight", func() error { return nil })
}

// ErrFightEnded is the page of a fight that is no longer running: it
// has ended (even if another has begun in its channel since).
var ErrFightEnded = errors.New("the fight has ended")

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

// LoadFightPage reads fight id in channelID as the GM (forGM) or the
// players see it, the health words measured on the damage track of the
// policy ps has for its system. Unless it is the channel's running
// fight, it is ErrFightEnded: a page never shows another fight than its
// own.
func LoadFightPage(ctx context.Context, store kit.EncounterStore, ps encounter.Policies, channelID string, id int64, forGM bool) (FightPage, error) {
	enc, err := runningFight(ctx, store, channelID, id)
	if err != nil {
		return FightPage{}, err
	}
	entries, err := store.EncounterLog(ctx, channelID, -1)
	if err != nil {
		return FightPage{}, fmt.Errorf("fight page of channel %s: log: %w", channelID, err)
	}
	for _, e := range entries {
		if e.EncounterID != id {
			// It ended, and another began, between the two reads.
			return FightPage{}, fmt.Errorf("fight %d in channel %s: %w", id, channelID, ErrFightEnded)
		}
	}
	p := FightPage{InitResult: InitResult{View: ViewOf(ps, enc.State, forGM), System: enc.State.System}, GM: forGM, Seq: enc.Seq}
	if !forGM {
		p.Seq = playersSeq(entries)
	}
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

// FightSeq is what the page's live updates of fight id in channelID
// watch: for the GM (forGM), the journal's newest entry; for the players,
// how many of its entries they can read (playersSeq), so that their page
// and its event stream move only when something they may see changes,
// never with a change to a hidden combatant (issue 20). Once the fight is
// no longer running it is an error wrapping db.ErrNotFound, a change (to
// -1) for the watch.
func FightSeq(ctx context.Context, store kit.EncounterStore, channelID string, id int64, forGM bool) (int64, error) {
	enc, err := runningFight(ctx, store, channelID, id)
	if errors.Is(err, ErrFightEnded) {
		return 0, fmt.Errorf("%w: %w", err, db.ErrNotFound)
	}
	if err != nil {
		return 0, err
	}
	if forGM {
		return enc.Seq, nil
	}
	entries, err := store.EncounterLog(ctx, channelID, -1)
	if err != nil {
		return 0, fmt.Errorf("fight seq of channel %s: log: %w", channelID, err)
	}
	for _, e := range entries {
		if e.EncounterID != id {
			return 0, fmt.Errorf("fight %d in channel %s: %w: %w", id, channelID, ErrFightEnded, db.ErrNotFound)
		}
	}
	return playersSeq(entries), nil
}

// playersSeq counts the entries of a fight's journal the players can
// read: it moves with each, and with nothing else.
func playersSeq(entries []db.EncounterEvent) int64 {
	var n int64
	for _, e := range entries {
		if logSummary(e, false) != "" {
			n++
		}
	}
	return n
}

// runningFight is fight id if it is the channel's running fight, else
// ErrFightEnded.
func runningFight(ctx context.Context, store kit.EncounterStore, channelID string, id int64) (db.Encounter, error) {
	enc, err := store.Encounter(ctx, channelID)
	if errors.Is(err, db.ErrNotFound) || (err == nil && enc.ID != id) {
		return db.Encounter{}, fmt.Errorf("fight %d in channel %s: %w", id, channelID, ErrFightEnded)
	}
	if err != nil {
		return db.Encounter{}, fmt.Errorf("fight page of channel %s: %w", channelID, err)
	}
	return enc, nil
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

// fightPage is the web page of one fight (db.FightScope), a
// kit.LivePage: it follows the fight's journal while the fight runs, and
// then says it has ended ("ended", served as kit.ErrGone), the same to
// both audiences, whatever the channel does next.
type fightPage struct {
	store    kit.EncounterStore
	policies encounter.Policies
}

func (fightPage) Serves(scope string) bool {
	_, _, ok := db.FightOf(scope)
	return ok
}

func (f fightPage) Render(ctx context.Context, b *bytes.Buffer, p db.Page) error {
	channel, id, _ := db.FightOf(p.Scope)
	fp, err := LoadFightPage(ctx, f.store, f.policies, channel, id, p.Audience == db.AudienceGM)
	if errors.Is(err, ErrFightEnded) {
		b.Reset()
		if err := fightTemplates.ExecuteTemplate(b, "ended", nil); err != nil {
			return fmt.Errorf("render ended: %w", err)
		}
		return fmt.Errorf("fight %d: %w", id, kit.ErrGone)
	}
	if err != nil {
		return err
	}
	if err := fightTemplates.ExecuteTemplate(b, "fight", fp); err != nil {
		return fmt.Errorf("render fight: %w", err)
	}
	return nil
}

func (f fightPage) Seq(ctx context.Context, p db.Page) (int64, error) {
	channel, id, _ := db.FightOf(p.Scope)
	return FightSeq(ctx, f.store, channel, id, p.Audience == db.AudienceGM)
}
