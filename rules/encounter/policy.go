package encounter

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Policy is what a rule system decides about a fight. The encounter calls
// it and keeps the bookkeeping (the turn pointer, rounds, conditions,
// counters, reveals) itself. A policy must not add or remove combatants,
// nor touch Round, Turn, Begun, Ended or Reached; it may reorder
// e.Combatants in Order and EndRound, change combatants' fields (Stats,
// Resources, Counters, Initiative), and set Defeated and Skipping. Each
// operation works on a copy that is kept only if it succeeds, so a policy
// may fail half-way.
//
// Systems embed Base for the common parts and write Name and Order, and
// Insert unless newcomers go last.
type Policy interface {
	// Name is the system name, as in Encounter.System.
	Name() string
	// Order sorts e.Combatants for the start of the fight, rolling as the
	// system says, and returns the rolls made. It may set Skipping on those
	// who sit out the first round (the surprised).
	Order(e *Encounter, r dice.Roller) ([]Roll, error)
	// Insert returns where c, joining the fight after it began, goes in the
	// established order: an index from 0 (first) to len(e.Combatants)
	// (last). c is not in e.Combatants yet; Insert may set its Initiative.
	Insert(e *Encounter, c *Combatant, r dice.Roller) (pos int, rolls []Roll, err error)
	// Resets says when per-round Counters go back to 0.
	Resets() Reset
	// StartTurn and EndTurn run at the start and end of c's turn (budgets,
	// ongoing effects), once a turn: a turn replayed after Prev runs
	// neither again. A delayed turn starts twice, the second time with
	// c.Delayed set. A line is secret when c is hidden, whatever the policy
	// says.
	StartTurn(e *Encounter, c *Combatant) []Line
	EndTurn(e *Encounter, c *Combatant) []Line
	// EndRound runs when the last turn of a round ends (recovery, ticking
	// statuses, reordering), before the next round begins.
	EndRound(e *Encounter) []Line
	// Damage and Heal apply to the system's damage track and return the
	// summary line ("Goblin 2 took 5 damage (hp 7 -> 2)"); they set
	// c.Defeated as the track says. kind is a damage type or "". amount is
	// at least 0.
	Damage(e *Encounter, c *Combatant, amount int, kind string) (string, error)
	Heal(e *Encounter, c *Combatant, amount int) (string, error)
	// Budget says what c may still do this turn ("2 actions, 1
	// reaction"), or "" if the system keeps no count.
	Budget(e *Encounter, c *Combatant) string
}

// Describer is a Policy that words a combatant's numbers on the tracker
// itself, as the system's players know them. Without it the tracker shows
// each resource as "name value/max". Describe gets what the viewer may
// see, and returns the parts of the combatant's line after its name.
type Describer interface {
	Describe(c CombatantView) []string
}

// Downer is a Policy under which a combatant can be down before the
// tracker marks it Defeated: one at 0 that falls when the round ends, one
// knocked out. Down says why c is down ("at hp 0, falls as the round
// ends"), or "" when it is not. End marks such a combatant Defeated, so
// that the fight's summary and the tracker agree.
type Downer interface {
	Down(e *Encounter, c *Combatant) string
}

// Reset says when combatants' Counters go back to 0.
type Reset int

// Resets.
const (
	// ResetTurn: each combatant's counters reset at the start of its own
	// turn (reactions "until the start of your next turn").
	ResetTurn Reset = iota
	// ResetRound: everyone's counters reset when a new round begins, for
	// counts kept by the round (seed 003: "At the end of each round, all
	// combatants gain the benefits of their recovery.").
	ResetRound
)

// TrackHP is the damage track of hit points: Base's unless it names
// another, and the one a combatant cannot join the fight at 0 of.
const TrackHP = "hp"

// Base is the common part of a policy, to embed: no-op turn and round
// hooks, a damage track on one resource, no budget, and newcomers at the
// end of the order. Its zero value resets counters per turn and tracks
// "hp".
type Base struct {
	// Track is the resource Damage and Heal apply to; "" is "hp".
	Track string
	// CounterReset is what Resets returns.
	CounterReset Reset
}

// Insert puts a newcomer last.
func (Base) Insert(e *Encounter, c *Combatant, r dice.Roller) (int, []Roll, error) {
	return len(e.Combatants), nil, nil
}

// Resets returns b.CounterReset.
func (b Base) Resets() Reset { return b.CounterReset }

// StartTurn does nothing.
func (Base) StartTurn(e *Encounter, c *Combatant) []Line { return nil }

// EndTurn does nothing.
func (Base) EndTurn(e *Encounter, c *Combatant) []Line { return nil }

// EndRound does nothing.
func (Base) EndRound(e *Encounter) []Line { return nil }

// Budget returns "".
func (Base) Budget(e *Encounter, c *Combatant) string { return "" }

func (b Base) track() string {
	if b.Track == "" {
		return TrackHP
	}
	return b.Track
}

// Damage lowers the track, not below 0; at 0 the combatant is defeated.
func (b Base) Damage(e *Encounter, c *Combatant, amount int, kind string) (string, error) {
	t := b.track()
	was, ok := c.Resources[t]
	if !ok {
		return "", invalidf("%s has no %s to take damage from: give it %s when adding it", c.Name, t, t)
	}
	now := max(was-amount, 0)
	c.Resources[t] = now
	what := "damage"
	if kind != "" {
		what = kind + " damage"
	}
	s := fmt.Sprintf("%s took %d %s (%s %d -> %d)", c.Name, amount, what, t, was, now)
	if now == 0 && !c.Defeated {
		c.Defeated = true
		s += ": defeated"
	}
	return s, nil
}

// Heal raises the track, not above its maximum if it has one; above 0 a
// defeated combatant is back in the fight.
func (b Base) Heal(e *Encounter, c *Combatant, amount int) (string, error) {
	t := b.track()
	was, ok := c.Resources[t]
	if !ok {
		return "", invalidf("%s has no %s to heal: give it %s when adding it", c.Name, t, t)
	}
	now := was + amount
	if m, ok := c.Max[t]; ok && now > m {
		now = max(m, was)
	}
	c.Resources[t] = now
	s := fmt.Sprintf("%s healed %d (%s %d -> %d)", c.Name, amount, t, was, now)
	if now > 0 && c.Defeated {
		c.Defeated = false
		s += ": back in the fight"
	}
	return s, nil
}

// Policies maps system names to their policies. The caller builds it, at
// start, with NewPolicies.
type Policies map[string]Policy

// NewPolicies returns the policies by name, with Generic under "" and
// "generic" unless one of ps takes that name. A name given twice panics:
// it is a wiring mistake.
func NewPolicies(ps ...Policy) Policies {
	m := Policies{"": Generic{}, GenericName: Generic{}}
	seen := map[string]bool{}
	for _, p := range ps {
		name := strings.ToLower(p.Name())
		if seen[name] {
			panic("encounter: two policies named " + name)
		}
		seen[name] = true
		m[name] = p
	}
	return m
}

// For returns the policy of a system, ignoring case.
func (ps Policies) For(system string) (Policy, error) {
	if p, ok := ps[strings.ToLower(system)]; ok {
		return p, nil
	}
	names := make([]string, 0, len(ps))
	for name := range ps {
		if name != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return nil, invalidf("there is no system named %s: use one of %s", system, strings.Join(names, ", "))
}

// Roll is one roll a policy made: an initiative roll, a tie-break.
type Roll struct {
	Combatant int    `json:"combatant"` // ID of who rolled
	Name      string `json:"name"`      // their name
	For       string `json:"for"`       // what the roll is for: "initiative", "tie-break"
	Expr      string `json:"expr"`      // the expression in normal form
	Total     int    `json:"total"`
	Faces     []int  `json:"faces"`  // every die's face, in the order rolled
	Text      string `json:"text"`   // as a reply shows it: "1d20 (14) + 2 = 16"
	Secret    bool   `json:"secret"` // the roller is hidden from the players
	// Given: no die was rolled; Total is the score given at the table
	// (StatGiven), and Text says so.
	Given bool `json:"given,omitempty"`
	// Typed: its dice are values typed in (a command's dice:), not
	// rolled by Tablehand; its line says so (issue 20).
	Typed bool `json:"typed,omitempty"`
}

// RollExpr rolls a dice expression for c with r, for a policy. A
// *dice.SyntaxError comes back as it is; an error of the roll is wrapped
// with %w, so errors.As finds a *dice.Error (physical dice that do not
// fit) in it.
func RollExpr(r dice.Roller, c *Combatant, what, expr string) (Roll, error) {
	x, err := dice.Parse(expr)
	if err != nil {
		return Roll{}, err
	}
	res, err := x.Roll(r)
	if err != nil {
		return Roll{}, fmt.Errorf("roll %s for %s: %w", what, c.Name, err)
	}
	roll := Roll{Combatant: c.ID, Name: c.Name, For: what, Expr: res.Expr, Total: res.Total,
		Text: res.String(), Secret: c.Hidden}
	for _, g := range res.Groups {
		for _, d := range g.Dice {
			roll.Faces = append(roll.Faces, d.Face)
		}
	}
	return roll, nil
}
