package ulm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/tracker"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// /ulm move, fall, injure, epilogue and heal in a running fight. When the
// channel has a ulm encounter (/init start under the ulm rules) and the
// command names one of its combatants (actor:, target: or character:),
// the command acts on the fight through the ulm policy (rules.Policy.Move,
// Fall, Injure, Epilogue, HealWith): the slots are spent, the damage lands
// on its Injury Panel, Vulnerable, the Epilogue and the healing are kept.
// It is one transaction, as every /init change is (handlers.change): the
// journal keeps it for /init undo, redo and log, and the tracker message
// is edited. With no fight, or a name that is not a combatant the asker can
// see, the command works out the rules from its options as it always did.
//
// Who may do what follows /init: the actor of a move and the activator of
// an Epilogue act, so a player names only its own combatants (the GM any);
// a fall, an injury, healing and an Epilogue's Victim are what happens to
// a combatant, which anyone who can see it may apply, as with /init damage
// and /init heal. A hidden combatant does not exist for a player.
//
// /ulm rest does not act on a fight: the fight's rounds are its clock, and
// the policy passes each Full Round for everyone as the round ends.

// ulmFight returns the channel's running ulm fight, or nil when there is
// none (no encounter, one of another system, or no encounter store). It
// does not look when the command names no one.
func (h *handlers) ulmFight(ctx context.Context, req *kit.Request, names ...string) (*encounter.Encounter, error) {
	if h.Encounters == nil || !slices.ContainsFunc(names, func(n string) bool { return strings.TrimSpace(n) != "" }) {
		return nil, nil
	}
	enc, err := h.Encounters.Encounter(ctx, req.ChannelID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load the encounter of channel %s: %w", req.ChannelID, err)
	}
	if enc.State.Ended || !strings.EqualFold(enc.State.System, rules.SystemName) {
		return nil, nil
	}
	return enc.State, nil
}

// ulmCombatant returns the combatant of e named name, as the asker may see
// it: nil without a fight or a name, for a name not in the fight, and for
// a hidden combatant named by a player.
func ulmCombatant(req *kit.Request, e *encounter.Encounter, name string) *encounter.Combatant {
	if e == nil || strings.TrimSpace(name) == "" {
		return nil
	}
	c, err := e.Find(name)
	if err != nil || (c.Hidden && !req.GM) {
		return nil
	}
	return c
}

// ulmNamed is the name a subcommand gives its actor or Victim: the option,
// else the sheet's character; "" for neither.
func ulmNamed(req *kit.Request, u *ulmRun, option string) string {
	if name := strings.TrimSpace(req.Options.String(option)); name != "" {
		return name
	}
	return u.sheet.Name()
}

// ulmFind finds the combatant named in the fight being changed, as the
// asker may see it, as /init does (checkVisible).
func ulmFind(req *kit.Request, e *encounter.Encounter, name string) (*encounter.Combatant, error) {
	if err := tracker.CheckVisible(req, e, name); err != nil {
		return nil, err
	}
	return e.Find(name)
}

// ulmMayActFor refuses a player acting for a combatant not their own: only
// its player and the GM may.
func ulmMayActFor(req *kit.Request, c *encounter.Combatant, example string) error {
	if req.GM || (c.Owner != "" && c.Owner == req.User.ID) {
		return nil
	}
	return kit.Errorf("%s is not yours: only its player or the GM acts for it (example: %s)", c.Name, example)
}

// ulmFightKeeps refuses options that give what the fight keeps itself: a
// combatant's Hit Points and Injury Panel, its slots and phase. example
// is the command without them.
func ulmFightKeeps(req *kit.Request, name, example string, options ...string) error {
	var given []string
	for _, o := range options {
		if req.Options.Has(o) {
			given = append(given, o+":")
		}
	}
	if len(given) == 0 {
		return nil
	}
	return kit.Errorf("%s is a combatant of this channel's fight, which keeps its state, slots and phase: leave out %s (example: %s), or name someone who is not in the fight to work it out by hand",
		strings.TrimSpace(name), strings.Join(given, ", "), example)
}

// ulmAccount is what a subcommand did to the fight, for the journal and
// the reply.
type ulmAccount struct {
	summary string
	// secret: it names a combatant the players cannot see; public is then
	// what they read instead, if anything.
	secret bool
	public string
}

// ulmInFight is the part of a /ulm `result` that a subcommand acting on
// the fight adds: the encounter as the asker may see it, as /init answers
// with.
type ulmInFight struct {
	Encounter *tracker.InitResult `json:"encounter,omitempty"`
}

// ulmTrack runs op on the channel's fight with the ulm policy in one
// transaction (handlers.change), on a copy kept only if op succeeds, the
// `dice:` values fit and the encounter stays whole. The journal records
// the change under kind.
func (h *handlers) ulmTrack(ctx context.Context, req *kit.Request, u *ulmRun, kind string, op func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error)) (db.Encounter, encounter.Event, error) {
	enc, ev, _, err := h.fight.Change(ctx, req, func(e *db.Encounter, p encounter.Policy) (encounter.Event, error) {
		up, ok := p.(rules.Policy)
		if !ok {
			return encounter.Event{}, kit.Errorf("the fight in this channel runs on the %s rules, not ulm's: see /init list", e.State.System)
		}
		x := e.State.Clone()
		acc, err := op(x, up)
		if u.dice.failed != nil {
			return encounter.Event{}, fmt.Errorf("%s: %w", kind, u.dice.failed)
		}
		if err != nil {
			return encounter.Event{}, err
		}
		if err := u.diceUsed(req); err != nil {
			return encounter.Event{}, err
		}
		if err := u.t.Done(); err != nil {
			return encounter.Event{}, err
		}
		if err := x.Validate(); err != nil {
			return encounter.Event{}, fmt.Errorf("%s: encounter broken after the ulm policy ran: %w", kind, err)
		}
		e.State = x
		return encounter.Event{Kind: encounter.Kind(kind), Actor: req.User.ID, Round: x.Round,
			Summary: acc.summary, Secret: acc.secret, Public: acc.public}, nil
	})
	return enc, ev, err
}

// ulmFightReply answers a change to the fight: the change as the players
// may read it (for the GM alone when it is all secret), the dice and the
// roll's ID; the roll is logged, privately when secret; the `result`
// gets the encounter; the tracker message, if there is one, is edited.
func (h *handlers) ulmFightReply(ctx context.Context, req *kit.Request, u *ulmRun, expr string, out *kit.Outcome, fight *ulmInFight, result any, enc db.Encounter, ev encounter.Event) (kit.Response, error) {
	public := ev.Text(false)
	private := req.Options.Bool("private")
	out.Rolls = u.t.Rolls()
	// The roll is logged without the encounter: the GM's view of it names
	// the hidden.
	id, err := h.LogRoll(ctx, req, expr, out.Total, private || ev.Secret, result)
	if err != nil {
		return kit.Response{}, err
	}
	out.ID = id
	text := public
	if public == "" {
		text = ev.Text(true)
	}
	content := kit.EscapeInline(text)
	if b := u.t.Breakdown(); b != "" {
		content += "\n" + b
	}
	content += "\n-# roll " + out.ID
	view := h.fight.InitResult(enc.State, req.GM)
	fight.Encounter = &view
	resp := kit.Response{Content: content, Ephemeral: private || public == "", Result: result}
	if public != "" {
		h.fight.ShowTracker(req, enc, &resp, false)
		if !private {
			resp.Followups = tracker.GMSecrets(req, ev)
		}
	}
	return resp, nil
}

const ulmMoveFightExample = "/ulm move action:rush actor:<your combatant>"

// ulmMoveInFight is /ulm move by a combatant: rules.Policy.Move spends the
// Celerity from the slots of the phase it is in.
func (h *handlers) ulmMoveInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, ulmMoveFightExample, "phase", "momentum", "last_slot"); err != nil {
		return kit.Response{}, err
	}
	in := rules.MoveInput{
		Move:    rules.Move(req.Options.String("action")),
		Surface: rules.Surface(req.Options.String("surface")), LimbsBusy: req.Options.Bool("limbs_busy"), Gear: req.Options.Bool("gear"),
	}
	if n, ok := req.Options.Int("slots"); ok {
		in.Slots = int(n)
	}
	if n, ok := req.Options.Int("accuracy"); ok {
		in.Accuracy, in.AccuracyKnown = int(n), true
	}
	var (
		res   rules.MoveResult
		actor string
		left  int
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm move", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		if err := ulmMayActFor(req, c, ulmMoveFightExample); err != nil {
			return ulmAccount{}, err
		}
		if _, ok := c.Stats[rules.StatAccuracy]; (in.Move == rules.Jump || in.Move == rules.Leap) && !in.AccuracyKnown && !ok {
			return ulmAccount{}, kit.Errorf("%s has no accuracy for the Accuracy Check: give accuracy:<number> (example: /ulm move action:%s actor:%s accuracy:2 dice:12)", c.Name, in.Move, c.Name)
		}
		var line string
		if res, line, err = p.Move(e, c, in, u.dice); err != nil {
			return ulmAccount{}, err
		}
		actor = c.Name
		_, left = p.SlotsLeft(e, c)
		return ulmAccount{summary: line, secret: c.Hidden}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmMoveResult{
		Outcome: kit.Outcome{Total: res.Tiles}, Action: string(res.Move), Phase: string(res.Phase), Celerity: res.Celerity,
		Slot: res.Phase.Slot(), Tiles: res.Tiles, Momentum: res.Momentum, MomentumNext: res.MomentumNext, Notes: append([]string{}, res.Notes...),
		Actor: actor, SlotsLeft: &left,
	}
	if c := res.Check; c != nil {
		result.Total, result.Target = c.Total, c.Target
		result.Succeeded(c.Success, c.Margin)
	}
	return h.ulmFightReply(ctx, req, u, "ulm move "+string(res.Move), &result.Outcome, &result.ulmInFight, result, enc, ev)
}

// ulmFallInFight is /ulm fall of a combatant: rules.Policy.Fall spends or
// owes the Action Slots and puts the damage on its Injury Panel.
func (h *handlers) ulmFallInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, "/ulm fall tiles:12 target:<combatant> dice:1,2,3", "hp", "damage", "holy", "spite", "vulnerable", "slots"); err != nil {
		return kit.Response{}, err
	}
	tiles, _ := req.Options.Int("tiles")
	var (
		res    rules.FallResult
		target string
		owed   int
		left   *int
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm fall", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		before := c.Resources[rules.ResFallSlots]
		var line string
		if res, line, err = p.Fall(e, c, int(tiles), u.dice); err != nil {
			return ulmAccount{}, err
		}
		target, owed = c.Name, c.Resources[rules.ResFallSlots]-before
		if phase, n := p.SlotsLeft(e, c); e.Begun && phase == rules.Active {
			left = &n
		}
		return ulmAccount{summary: line, secret: c.Hidden}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := newUlmFallResult(res, target, u.cfg)
	result.SlotsOwed, result.SlotsLeft = owed, left
	return h.ulmFightReply(ctx, req, u, "ulm fall", &result.Outcome, &result.ulmInFight, result, enc, ev)
}

const ulmEpilogueFightExample = "/ulm epilogue kind:knockout target:<Victim> actor:<your combatant>"

// ulmEpilogueInFight is /ulm epilogue on a combatant: rules.Policy.Epilogue
// applies it, and the activator named with actor: spends its slot.
func (h *handlers) ulmEpilogueInFight(ctx context.Context, req *kit.Request, u *ulmRun, kind rules.Epilogue, victimName, actorName string) (kit.Response, error) {
	if err := ulmFightKeeps(req, victimName, ulmEpilogueFightExample, "hp", "damage", "holy", "spite", "vulnerable", "phase", "slots"); err != nil {
		return kit.Response{}, err
	}
	in := rules.EpilogueInput{Kind: kind, OutOfReach: req.Options.Has("reach") && !req.Options.Bool("reach")}
	var (
		res           rules.EpilogueResult
		victim, actor string
		left          *int
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm epilogue", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		before := e.Clone()
		v, err := ulmFind(req, e, victimName)
		if err != nil {
			return ulmAccount{}, err
		}
		var a *encounter.Combatant
		if actorName != "" {
			if a, err = ulmFind(req, e, actorName); err != nil {
				return ulmAccount{}, err
			}
			if err := ulmMayActFor(req, a, ulmEpilogueFightExample); err != nil {
				return ulmAccount{}, err
			}
		}
		var line string
		if res, line, err = p.Epilogue(e, a, v, in); err != nil {
			return ulmAccount{}, err
		}
		acc := ulmAccount{summary: line, secret: v.Hidden}
		victim = v.Name
		if a != nil {
			actor = a.Name
			if _, n := p.SlotsLeft(e, a); e.Begun {
				left = &n
			}
			if a.Hidden && !v.Hidden {
				// The players read what befell the Victim, not who did it:
				// the account of the Epilogue with no activator named,
				// from a copy of the fight before it.
				acc.secret = true
				if acc.public, err = ulmEpilogueUnnamed(before, p, v.ID, in); err != nil {
					return ulmAccount{}, err
				}
			}
		}
		return acc, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmEpilogueResult{
		Outcome: kit.Outcome{Total: res.Celerity}, Kind: string(kind), Target: victim,
		Celerity: res.Celerity, Slot: res.Phase.Slot(), State: newUlmState(res.State, u.cfg),
		Actor: actor, SlotsLeft: left,
	}
	return h.ulmFightReply(ctx, req, u, "ulm epilogue "+string(kind), &result.Outcome, &result.ulmInFight, result, enc, ev)
}

// ulmEpilogueUnnamed is the account of in on the combatant victimID of e
// with no activator named ("Its activator activates Maim on ..."): what
// the players read of an Epilogue a hidden combatant activated.
func ulmEpilogueUnnamed(e *encounter.Encounter, p rules.Policy, victimID int, in rules.EpilogueInput) (string, error) {
	return ulmRetell(e, victimID, func(x *encounter.Encounter, c *encounter.Combatant) (string, error) {
		_, line, err := p.Epilogue(x, nil, c, in)
		return line, err
	})
}

// ulmRetell runs tell on the combatant victimID of a copy of e, the fight
// before a change, and returns its account: the change told again without
// the hidden combatant who had a part in it, for the players.
func ulmRetell(e *encounter.Encounter, victimID int, tell func(x *encounter.Encounter, c *encounter.Combatant) (string, error)) (string, error) {
	x := e.Clone()
	for i := range x.Combatants {
		if c := &x.Combatants[i]; c.ID == victimID {
			return tell(x, c)
		}
	}
	return "", fmt.Errorf("retell: combatant %d is not in the fight", victimID)
}

// ulmHealInFight is /ulm heal of a combatant: rules.Policy.HealWith, with
// specialized healing and Barriers that /init heal does not give.
func (h *handlers) ulmHealInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string, in rules.Healing) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, "/ulm heal amount:2d6 target:<combatant> dice:3,4", "hp", "damage", "holy", "spite", "vulnerable", "maimed"); err != nil {
		return kit.Response{}, err
	}
	var err error
	if in.Amount, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	var (
		res    rules.HealResult
		target string
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm heal", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		var line string
		if res, line, err = p.HealWith(e, c, in); err != nil {
			return ulmAccount{}, err
		}
		target = c.Name
		return ulmAccount{summary: line, secret: c.Hidden}, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmHealResult{
		Outcome: kit.Outcome{Total: res.Healed}, Target: target, Amount: in.Amount, Healed: res.Healed, Resisted: res.Resisted,
		VulnerableEnded: res.VulnerableEnded, MaimReversed: res.MaimReversed, State: newUlmState(res.State, u.cfg),
	}
	return h.ulmFightReply(ctx, req, u, "ulm heal", &result.Outcome, &result.ulmInFight, result, enc, ev)
}

const ulmInjureFightExample = "/ulm injure target:<combatant> amount:2d6+3 type:incision dice:4,5"

// ulmInjureInFight is /ulm injure of a combatant: rules.Policy.Injure
// resolves the damage against its Injury Panel, with the Mitigation,
// Amplification and Weakness given, else its own stats. Anyone who can
// see the Victim may injure it, as with /init damage.
func (h *handlers) ulmInjureInFight(ctx context.Context, req *kit.Request, u *ulmRun, name string, typ rules.DamageType) (kit.Response, error) {
	if err := ulmFightKeeps(req, name, ulmInjureFightExample, "hp", "damage", "holy", "spite", "vulnerable"); err != nil {
		return kit.Response{}, err
	}
	in := rules.InjureInput{Injury: rules.Injury{Type: typ, Object: req.Options.Bool("object"), Execution: rules.Epilogue(req.Options.String("execution"))}}
	if src := strings.TrimSpace(req.Options.String("source")); src != "" {
		var err error
		if in.Source, err = kit.CleanName("source name", src); err != nil {
			return kit.Response{}, err
		}
	}
	for _, m := range []struct {
		option string
		to     *int
		known  *bool
	}{
		{"mitigation", &in.Mitigation, &in.MitigationKnown},
		{"amplification", &in.Amplification, &in.AmplificationKnown},
		{"weakness", &in.Weakness, &in.WeaknessKnown},
	} {
		if n, ok := req.Options.Int(m.option); ok {
			*m.to, *m.known = int(n), true
		}
	}
	var err error
	if in.Potency, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	var (
		res    rules.InjuryResult
		target string
	)
	enc, ev, err := h.ulmTrack(ctx, req, u, "ulm injure", func(e *encounter.Encounter, p rules.Policy) (ulmAccount, error) {
		before := e.Clone()
		c, err := ulmFind(req, e, name)
		if err != nil {
			return ulmAccount{}, err
		}
		var line string
		if res, line, err = p.Injure(e, c, in); err != nil {
			return ulmAccount{}, err
		}
		target = c.Name
		acc := ulmAccount{summary: line, secret: c.Hidden}
		// The GM may name a hidden combatant as the source: the players
		// read the damage without it. A player's source is only what they
		// typed, and is told as typed, so that it tells them nothing.
		if src, err := e.Find(in.Source); req.GM && in.Source != "" && err == nil && src.Hidden && !c.Hidden {
			unnamed := in
			unnamed.Source = ""
			acc.secret = true
			if acc.public, err = ulmRetell(before, c.ID, func(x *encounter.Encounter, v *encounter.Combatant) (string, error) {
				_, line, err := p.Injure(x, v, unnamed)
				return line, err
			}); err != nil {
				return ulmAccount{}, err
			}
		}
		return acc, nil
	})
	if err != nil {
		return kit.Response{}, err
	}
	if res.Card != nil && in.Source == "" {
		// The card the result shows has the Damage Source of a card made
		// outside a fight ("default: you"); the journal names it only
		// when given, as its actor is the asker already. It is the newest
		// card of the panel.
		res.Card.Source = ulmUserName(req.User)
		res.State.Cards[len(res.State.Cards)-1].Source = res.Card.Source
	}
	result := newUlmInjureResult(res, in.Injury, target, u.cfg)
	return h.ulmFightReply(ctx, req, u, "ulm injure "+string(typ), &result.Outcome, &result.ulmInFight, result, enc, ev)
}
