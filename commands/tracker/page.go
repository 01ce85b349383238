package tracker

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
)

// /init page, and the fight as its web page reads it (bot/web.go renders
// it): the same store, and the same encounter.View and journal reading as
// /init's answers, so the players' page shows what players read in
// Discord (no hidden combatant, no secret change).

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
