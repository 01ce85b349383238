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
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// Setting up a fight: /init start, add (the GM), join (a player, with a
// character) and begin (the GM rolls or orders initiative). A combatant
// added after the fight began rolls its initiative as it joins.

func (h *Tracker) initStart(ctx context.Context, req *kit.Request) (kit.Response, error) {
	system, note, err := h.startSystem(ctx, req)
	if err != nil {
		return kit.Response{}, err
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

// startSystem is the system of the fight /init start starts: system:,
// else the channel's (see /system) when it has encounter rules, else the
// generic rules, with a note that says so.
func (h *Tracker) startSystem(ctx context.Context, req *kit.Request) (system, note string, err error) {
	if system := req.Options.String("system"); system != "" {
		return system, "", nil
	}
	system = encounter.GenericName
	s, err := h.Channels.ChannelSystem(ctx, req.GuildID, req.ChannelID)
	switch {
	case err == nil:
		system = s.System
	case !errors.Is(err, db.ErrNotFound):
		return "", "", err
	}
	if _, err := h.Policies.For(system); err != nil {
		return encounter.GenericName, fmt.Sprintf("\n%s has no encounter rules yet: this fight runs on the generic ones.", system), nil
	}
	return system, "", nil
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
	return h.addCombatant(ctx, req, sheet, false)
}

// initJoin adds the asker to the fight: with their character (see
// joiner), or, where the system's order needs no stats and they have
// none, under their own name (name:, else their display name) with the
// initiative they give or the one the system rolls.
func (h *Tracker) initJoin(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cur, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if err != nil {
		return kit.Response{}, initError(err)
	}
	sheet, err := h.joiner(ctx, req, cur.State.System)
	if err != nil {
		return kit.Response{}, err
	}
	return h.addCombatant(ctx, req, sheet, true)
}

// joiner is the character that joins a fight of system with /init join:
// character:, which must be the asker's (any, for the GM), else the
// asker's one character of the fight's system (of any, in a generic
// fight); nil, for one who has none, when the system's order needs no
// stats (kit.System's OrderNeeds).
func (h *Tracker) joiner(ctx context.Context, req *kit.Request, system string) (*db.Character, error) {
	if system == encounter.GenericName {
		system = ""
	}
	if name := req.Options.String("character"); name != "" {
		sheet, err := h.LoadCharacter(ctx, req, name)
		if err == nil && sheet.OwnerID != req.User.ID && !req.GM {
			err = kit.Errorf("%s belongs to %s: join with your own character", sheet.Name, sheet.OwnerName)
		}
		return &sheet, err
	}
	mine, err := h.Characters.Characters(ctx, req.GuildID, req.User.ID, system, "", 2)
	if err != nil {
		return nil, err
	}
	what := "character"
	if system != "" {
		what = system + " character"
	}
	switch len(mine) {
	case 0:
		s, _ := h.SystemNamed(system)
		if len(s.OrderNeeds) == 0 {
			return nil, nil
		}
		var eg []string
		for _, st := range s.OrderNeeds {
			eg = append(eg, st+"=5")
		}
		return nil, kit.Errorf("this fight runs on the %s rules, whose order needs %s, and you have no %s here: create one with /character set name:<name> system:%s stats:\"%s\", or ask the GM to add you with /init add",
			system, strings.Join(s.OrderNeeds, ", "), what, system, strings.Join(eg, " "))
	case 1:
		return &mine[0], nil
	}
	return nil, kit.Errorf("you have several %ss: choose one with character:<name>", what)
}

// addCombatant adds the combatant of the request's options, over sheet
// when given, to the fight; one joining with no sheet is the asker's,
// under their name. It rolls its initiative with the request's dice when
// the fight has begun.
func (h *Tracker) addCombatant(ctx context.Context, req *kit.Request, sheet *db.Character, joining bool) (kit.Response, error) {
	call := kit.Read(req)
	c := h.combatantFrom(call, sheet, joining)
	if err := call.Err(); err != nil {
		return kit.Response{}, err
	}
	enc, ev, moved, err := h.rollingChange(ctx, req, func(e *encounter.Encounter, p encounter.Policy, r dice.Roller) (encounter.Event, error) {
		if err := checkSheetSystem(e, sheet); err != nil {
			return encounter.Event{}, err
		}
		if joining {
			if err := alreadyIn(e, req, c.Name); err != nil {
				return encounter.Event{}, err
			}
		}
		if o, err := e.Find(c.Name); err == nil && !req.GM && !o.Hidden {
			// A hidden combatant yields its name to one the players see
			// (encounter.Add): to them it is not there.
			return encounter.Event{}, kit.Errorf("the name %s cannot be used in this fight: join under another (example: /init join name:<name>)", c.Name)
		}
		return e.Add(p, r, req.User.ID, c)
	})
	if err != nil {
		return kit.Response{}, err
	}
	resp := h.reply(req, enc, ev, enc.State.Begun, moved)
	// What a player's join did that only the GMs read (a hidden combatant
	// yielding its name) goes to their channel; a GM's own answer has it
	// already (GMSecrets).
	if secret := ev.SecretFormat(kit.EscapeInline); secret != "" && !req.GM {
		msg := kit.Response{Content: fmt.Sprintf("🔒 in <#%s>: %s", req.ChannelID, secret)}
		if err := h.TellGMs(ctx, req, &resp, msg, "Tablehand could not post in the GM channel <#%s>: the GMs see it in /init list."); err != nil {
			return kit.Response{}, err
		}
	}
	return resp, nil
}

// alreadyIn refuses a second /init join of the asker's: under a name
// they already control in the fight, or, naming none (no name:, no
// character:), when they already control one the players can see.
func alreadyIn(e *encounter.Encounter, req *kit.Request, name string) error {
	named := req.Options.String("name") != "" || req.Options.String("character") != ""
	for _, o := range e.Combatants {
		if o.Owner != req.User.ID || (o.Hidden && !req.GM) {
			continue
		}
		if strings.EqualFold(o.Name, name) || !named {
			return kit.Errorf("you are already in this fight as %s: to join with another combatant too, give its name (example: /init join name:<name>)", o.Name)
		}
	}
	return nil
}

// checkSheetSystem refuses a character of another system than the
// encounter's; the generic fight takes any.
func checkSheetSystem(e *encounter.Encounter, c *db.Character) error {
	if c == nil || e.System == encounter.GenericName || e.System == "" || strings.EqualFold(c.System, e.System) {
		return nil
	}
	return kit.Errorf("%s is %s %s character and this fight runs on the %s rules", c.Name, kit.Article(c.System), c.System, e.System)
}

// combatantFrom builds the combatant of /init add or /init join from the
// request's options, over the stats of a character sheet when given; one
// joining without a sheet is the asker's, named by name: or their display
// name. Its mistakes go to call.
func (h *Tracker) combatantFrom(call *kit.Call, sheet *db.Character, joining bool) encounter.Combatant {
	req := call.Req
	c := encounter.Combatant{Stats: map[string]int{}, Resources: map[string]int{}, Max: map[string]int{}}
	stats := map[string]int{}
	switch {
	case sheet != nil:
		c.Name, c.Owner = sheet.Name, sheet.OwnerID
		if !joining && req.GM && sheet.OwnerID == req.User.ID {
			// The GM's own sheet, added by the GM, is the GM's NPC (the
			// Architect's, in xhalem's ties), unless owner: names a player.
			c.Owner = ""
		}
		maps.Copy(stats, sheet.Stats)
	case joining:
		c.Name, c.Owner = req.User.Name, req.User.ID
	}
	if name := req.Options.String("name"); name != "" || sheet == nil {
		clean, err := kit.CleanName("combatant name", cmp.Or(name, c.Name))
		call.Fail(err)
		c.Name = clean
	}
	tracks := h.typedStats(call, stats)
	h.optionStats(req, stats)
	c.Stats = takeTracks(&c, stats, tracks)
	// Within the options' limits (kit.MaxStatAbs), so that every command
	// words the same ones.
	call.Fail(initError(encounter.CheckTracks(&c, kit.MaxStatAbs)))
	if owner := req.Options.String("owner"); owner != "" {
		c.Owner = owner
	}
	c.NPC = c.Owner == ""
	c.Hidden = req.Options.Bool("hidden") || req.Options.Bool("reveal_on_turn")
	c.RevealOnTurn = req.Options.Bool("reveal_on_turn")
	return c
}

// typedStats applies the stats: and resources: options, "som=3 hp=-",
// to stats, and returns the names of the damage tracks: every system's,
// and each name given in resources: (max_vigor names vigor).
func (h *Tracker) typedStats(call *kit.Call, stats map[string]int) []string {
	tracks := h.resources()
	for i, text := range []string{call.Req.Options.String("stats"), call.Req.Options.String("resources")} {
		changes, err := kit.ParseStats(text)
		call.Fail(err)
		for k, v := range changes {
			if v == nil {
				delete(stats, k)
			} else {
				stats[k] = *v
			}
			// A name in resources: is a track, with its max_ maximum.
			if k := strings.TrimPrefix(k, "max_"); i == 1 && !slices.Contains(tracks, k) {
				tracks = append(tracks, k)
			}
		}
	}
	return tracks
}

// optionStats sets in stats the stat options given: a number, or a word
// of a system's that stands for one (kit.Stat's Values, into its Into).
func (h *Tracker) optionStats(req *kit.Request, stats map[string]int) {
	for _, s := range h.stats() {
		switch v := req.Options[s.Name].(type) {
		case int64:
			if s.Name == initiativeStat.Name {
				// The score as rolled at the table, apart from any
				// system's "initiative" stat (burst's bonus dice).
				stats[encounter.StatGiven] = int(v)
				continue
			}
			stats[s.Name] = int(v)
		case string:
			if n, ok := s.Values[v]; ok {
				stats[s.Into] = n
			}
		}
	}
}

// takeTracks moves each of tracks found in stats to c's Resources, with
// its maximum (max_hp, else the value given) in Max, and returns the
// stats left.
func takeTracks(c *encounter.Combatant, stats map[string]int, tracks []string) map[string]int {
	for _, r := range tracks {
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
	return stats
}

func (h *Tracker) initBegin(ctx context.Context, req *kit.Request) (kit.Response, error) {
	enc, ev, moved, err := h.rollingChange(ctx, req, func(e *encounter.Encounter, p encounter.Policy, r dice.Roller) (encounter.Event, error) {
		return e.Begin(p, r, req.User.ID)
	})
	if err != nil {
		return kit.Response{}, err
	}
	return h.reply(req, enc, ev, true, moved), nil
}

// rollingChange runs op with Change and a roller of the request's dice
// (the `dice:` values when given, which op must use up), then puts the
// rolls op made in the roll log.
func (h *Tracker) rollingChange(ctx context.Context, req *kit.Request, op func(e *encounter.Encounter, p encounter.Policy, r dice.Roller) (encounter.Event, error)) (db.Encounter, encounter.Event, bool, error) {
	t, err := h.Tray(req)
	if err != nil {
		return db.Encounter{}, encounter.Event{}, false, err
	}
	enc, ev, moved, err := h.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		ev, err := op(e.State, p, t.Roller())
		if err != nil {
			return ev, err
		}
		if kit.DiceGiven(req) != "" {
			// Each roll says its dice were typed in, in the reply and the
			// fight's log (a rolled-at-the-table score rolled nothing).
			for i := range ev.Rolls {
				ev.Rolls[i].Typed = !ev.Rolls[i].Given
			}
		}
		return ev, t.Done()
	})
	if err == nil {
		err = h.logEventRolls(ctx, req, ev)
	}
	return enc, ev, moved, err
}

// logEventRolls puts the rolls an encounter change made (initiative,
// tie-breaks) in the roll log, like every roll in Tablehand; a hidden
// combatant's roll is logged privately, for the GM who made it.
func (h *Tracker) logEventRolls(ctx context.Context, req *kit.Request, ev encounter.Event) error {
	for _, r := range ev.Rolls {
		if r.Given {
			continue // rolled at the table: no die of ours
		}
		what := strings.TrimSpace(r.Name + " " + r.For)
		// Each roll keeps its own typed-in values, not every value of
		// the command's dice: (another's roll, a hidden one's, among them).
		given := ""
		if r.Typed {
			given = kit.JoinValues(r.Faces)
		}
		if _, err := h.LogRollGiven(ctx, req, r.Expr+" ["+what+"]", r.Total, secretly(r.Secret), r, given); err != nil {
			return err
		}
	}
	return nil
}

// secretly is the visibility of a roll for the GM who made it alone when
// secret, else everyone's.
func secretly(secret bool) kit.Visibility {
	if secret {
		return kit.Self
	}
	return kit.Public
}
