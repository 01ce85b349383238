package tracker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
)

func (h *Tracker) initStart(ctx context.Context, req *kit.Request) (kit.Response, error) {
	system := req.Options.String("system")
	note := ""
	if system == "" {
		system = encounter.GenericName
		s, err := h.Channels.ChannelSystem(ctx, req.GuildID, req.ChannelID)
		switch {
		case err == nil:
			system = s.System
		case !errors.Is(err, db.ErrNotFound):
			return kit.Response{}, err
		}
		if _, err := h.Policies.For(system); err != nil {
			note = fmt.Sprintf("\n%s has no encounter rules yet: this fight runs on the generic ones.", system)
			system = encounter.GenericName
		}
	}
	p, err := h.Policies.For(system)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	enc, err := h.Encounters.StartEncounter(ctx, req.GuildID, req.ChannelID, p.Name(), req.User.ID)
	if errors.Is(err, db.ErrActiveEncounter) {
		if cur, err := h.Encounters.Encounter(ctx, req.ChannelID); err == nil && cur.State.Begun {
			return kit.Response{}, kit.Errorf("an encounter is already running here (round %d): end it with /init end first", cur.State.Round)
		}
		return kit.Response{}, kit.Errorf("an encounter is already running here: end it with /init end first")
	}
	if err != nil {
		return kit.Response{}, err
	}
	return kit.Response{
		Content: fmt.Sprintf("⚔️ An encounter starts here (%s rules). The GM adds combatants with /init add, players join with /init join, then the GM runs /init begin.%s", p.Name(), note),
		Result:  h.InitResult(enc.State, req.GM),
	}, nil
}

// combatantFrom builds the combatant of /init add or /init join from the
// request's options, over the stats of a character sheet when given.
func (h *Tracker) combatantFrom(req *kit.Request, sheet *db.Character) (encounter.Combatant, error) {
	c := encounter.Combatant{Stats: map[string]int{}, Resources: map[string]int{}, Max: map[string]int{}}
	stats := map[string]int{}
	if sheet != nil {
		c.Name, c.Owner = sheet.Name, sheet.OwnerID
		maps.Copy(stats, sheet.Stats)
	}
	if name := req.Options.String("name"); name != "" || sheet == nil {
		clean, err := kit.CleanName("combatant name", name)
		if err != nil {
			return c, err
		}
		c.Name = clean
	}
	resources := h.resources()
	statOptions := h.stats()
	for i, text := range []string{req.Options.String("stats"), req.Options.String("resources")} {
		changes, err := kit.ParseStats(text)
		if err != nil {
			return c, err
		}
		for k, v := range changes {
			if v == nil {
				delete(stats, k)
			} else {
				stats[k] = *v
			}
			// A name in resources: is a track, with its max_ maximum.
			if k := strings.TrimPrefix(k, "max_"); i == 1 && !slices.Contains(resources, k) {
				resources = append(resources, k)
			}
		}
	}
	for _, s := range statOptions {
		switch v := req.Options[s.Name].(type) {
		case int64:
			stats[s.Name] = int(v)
		case string:
			if n, ok := s.Values[v]; ok {
				stats[s.Into] = n
			}
		}
	}
	for _, r := range resources {
		top, hasMax := stats["max_"+r]
		v, ok := stats[r]
		switch {
		case ok:
			c.Resources[r] = v
			c.Max[r] = v
			if hasMax {
				c.Max[r] = top
			}
		case hasMax:
			c.Resources[r] = top
			c.Max[r] = top
		default:
			continue
		}
		delete(stats, r)
		delete(stats, "max_"+r)
	}
	c.Stats = stats
	if owner := req.Options.String("owner"); owner != "" {
		c.Owner = owner
	}
	c.NPC = c.Owner == ""
	c.Hidden = req.Options.Bool("hidden") || req.Options.Bool("reveal_on_turn")
	c.RevealOnTurn = req.Options.Bool("reveal_on_turn")
	return c, nil
}

// checkSheetSystem refuses a character of another system than the
// encounter's; the generic fight takes any.
func checkSheetSystem(e *encounter.Encounter, c *db.Character) error {
	if c == nil || e.System == encounter.GenericName || e.System == "" || strings.EqualFold(c.System, e.System) {
		return nil
	}
	return kit.Errorf("%s is %s %s character and this fight runs on the %s rules", c.Name, kit.Article(c.System), c.System, e.System)
}

func (h *Tracker) initAdd(ctx context.Context, req *kit.Request) (kit.Response, error) {
	var sheet *db.Character
	if name := req.Options.String("character"); name != "" {
		c, err := h.LoadCharacter(ctx, req, name)
		if err != nil {
			return kit.Response{}, err
		}
		sheet = &c
	}
	c, err := h.combatantFrom(req, sheet)
	if err != nil {
		return kit.Response{}, err
	}
	return h.addCombatant(ctx, req, c, sheet)
}

// addCombatant adds c to the fight, rolling with the request's dice when
// the fight has begun.
func (h *Tracker) addCombatant(ctx context.Context, req *kit.Request, c encounter.Combatant, sheet *db.Character) (kit.Response, error) {
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		if err := checkSheetSystem(e.State, sheet); err != nil {
			return encounter.Event{}, err
		}
		if _, err := e.State.Find(c.Name); err == nil && !req.GM {
			// One refusal for every name taken: "already a combatant named"
			// for a hidden one would tell a player it is there.
			return encounter.Event{}, kit.Errorf("the name %s cannot be used in this fight: join under another (example: /init join character:<name>)", c.Name)
		}
		ev, err := e.State.Add(p, t.Roller(), req.User.ID, c)
		if err != nil {
			return ev, err
		}
		return ev, t.Done()
	})
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.logEventRolls(ctx, req, ev); err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, enc.State.Begun, moved), nil
}

func (h *Tracker) initJoin(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cur, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	system := cur.State.System
	if system == encounter.GenericName {
		system = ""
	}
	var sheet db.Character
	if name := req.Options.String("character"); name != "" {
		if sheet, err = h.LoadCharacter(ctx, req, name); err != nil {
			return kit.Response{}, err
		}
		if sheet.OwnerID != req.User.ID && !req.GM {
			return kit.Response{}, kit.Errorf("%s belongs to %s: join with your own character", sheet.Name, sheet.OwnerName)
		}
	} else {
		mine, err := h.Characters.Characters(ctx, req.GuildID, req.User.ID, system, "", 2)
		if err != nil {
			return kit.Response{}, err
		}
		what := "character"
		if system != "" {
			what = system + " character"
		}
		switch len(mine) {
		case 0:
			return kit.Response{}, kit.Errorf("you have no %s here: create one with /character set name:<name> system:%s stats:\"...\"", what, cmp.Or(system, h.exampleSystem()))
		case 1:
			sheet = mine[0]
		default:
			return kit.Response{}, kit.Errorf("you have several %ss: choose one with character:<name>", what)
		}
	}
	c, err := h.combatantFrom(req, &sheet)
	if err != nil {
		return kit.Response{}, err
	}
	return h.addCombatant(ctx, req, c, &sheet)
}

func (h *Tracker) initBegin(ctx context.Context, req *kit.Request) (kit.Response, error) {
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		ev, err := e.State.Begin(p, t.Roller(), req.User.ID)
		if err != nil {
			return ev, err
		}
		return ev, t.Done()
	})
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.logEventRolls(ctx, req, ev); err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

// logEventRolls puts the rolls an encounter change made (initiative,
// tie-breaks) in the roll log, like every roll in Tablehand; a hidden
// combatant's roll is logged privately, for the GM who made it.
func (h *Tracker) logEventRolls(ctx context.Context, req *kit.Request, ev encounter.Event) error {
	for _, r := range ev.Rolls {
		what := strings.TrimSpace(r.Name + " " + r.For)
		if _, err := h.LogRoll(ctx, req, r.Expr+" ["+what+"]", r.Total, r.Secret, r); err != nil {
			return err
		}
	}
	return nil
}
