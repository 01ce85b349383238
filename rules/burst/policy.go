package burst

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// SystemName is the name of the burst system: its policy's name, as in
// encounter.Encounter.System.
const SystemName = "burst"

// Stats the policy reads: fixed scores given to /init add (see
// docs/burst.md, "Encounters"). A flag is set by any value but 0.
const (
	// StatInitiative is the bonus dice to initiative: "Talents or skills
	// might add bonus dice, as might situational modifiers."
	StatInitiative = "initiative"
	// StatInitCharges and StatInitChallenges step the initiative bonus
	// dice up and down (situational modifiers).
	StatInitCharges    = "init_charges"
	StatInitChallenges = "init_challenges"
	// StatActions is the actions of each turn, 0 or missing for
	// BaseActions: "You begin with 2 Actions. ... You gain additional
	// actions through upgrading skill trees and learning talents."
	StatActions = "actions"
	// StatAmbusher and StatAmbushed are the sides of an ambush (flags).
	StatAmbusher = "ambusher"
	StatAmbushed = "ambushed"
	// StatWatch (flag): in Over Watch, and the attack came from the
	// expected vector; StatWatchOther: from another vector.
	StatWatch      = "watch"
	StatWatchOther = "watch_other"
	// StatStamina: Vigor recovered ("1 point of Vigor for every 5 points
	// of Stamina") and the rounds in Shock.
	StatStamina = "stamina"
	// StatRegen, StatHealthRegen and StatManaRegen are what a special
	// ability recovers each round, of Durability, Health and Mana.
	StatRegen       = "regen"
	StatHealthRegen = "health_regen"
	StatManaRegen   = "mana_regen"
	// StatArmor is the Armor Rank of the armor worn, StatOtherArmor
	// another one (natural, magic): "If you have two or more Armor Ranks,
	// you use the highest". StatSealed (flag): the armor protects from
	// every damage type ("Unless stated otherwise, normal armor only
	// protects you from physical damage").
	StatArmor      = "armor"
	StatOtherArmor = "other_armor"
	StatSealed     = "sealed"
	// StatObject (flag): an object or construct, with Durability and no
	// Health.
	StatObject = "object"

	// Stats the policy keeps. StatWinded may also be given (a flag).
	StatWinded     = "winded"      // Winded: no actions until 5 Vigor
	StatDead       = "dead"        // killed: in Shock too long, or hurt in Shock
	StatFirstRound = "first_round" // actions in round 1, from Initiative
)

// Resources: current values, with their maxima in Max under the same
// names (ResourceShock has none).
const (
	ResourceDurability = "durability"
	ResourceHealth     = "health"
	ResourceVigor      = "vigor"
	ResourceMana       = "mana"
	// ResourceShock is the rounds left before a creature in Shock dies;
	// the policy keeps it, present only while the creature is in Shock.
	ResourceShock = "shock"
)

// Counters: counts within a round, which go back to 0 when a new round
// begins (encounter.ResetRound).
const (
	CounterActions   = "actions"   // actions taken this round (on its turn)
	CounterVigor     = "vigor"     // Vigor spent this round, paid at its end
	CounterMana      = "mana"      // Mana spent this round, paid at its end
	CounterReactions = "reactions" // reactions taken this round
)

// Conditions the policy reads, by name (ignoring case).
const (
	// ConditionStable: stabilised in Shock ("If you are stabilized, you
	// remain unconscious until you recover at least 1 point of health").
	ConditionStable = "stable"
	// ConditionDefending: the Defend action, "reducing the Vigor cost of
	// defensive reactions until the beginning of your next turn by 2".
	ConditionDefending = "defending"
)

// maxTieRolls bounds the rounds of d20s rolled to break one tie.
const maxTieRolls = 5

// Policy is the encounter policy of seed 003. See docs/burst.md,
// "Encounters", for what each hook does and the names it reads.
type Policy struct {
	encounter.Base
	cfg Config
}

// NewPolicy returns the policy with cfg; the zero Config is the defaults.
func NewPolicy(cfg Config) encounter.Policy {
	if cfg.IsZero() {
		cfg = DefaultConfig()
	}
	return Policy{Base: encounter.Base{Track: ResourceDurability, CounterReset: encounter.ResetRound}, cfg: cfg}
}

// Name returns "burst".
func (Policy) Name() string { return SystemName }

// Order rolls initiative for everyone, in the order of the list (the order
// they were added, unless moved), and sorts them highest first: "When
// combat begins, all participants who wish to act roll their action dice.
// ... Each round, all fighters act in order of their initiative roll from
// highest to lowest." Each combatant's key is (total, bonus dice); those
// still tied roll a d20 each, highest first, again while they tie, at most
// five times; a tie left keeps the list order. A hidden combatant ties
// only with hidden ones, after those the players see.
func (p Policy) Order(e *encounter.Encounter, r dice.Roller) ([]encounter.Roll, error) {
	var rolls []encounter.Roll
	for i := range e.Combatants {
		c := &e.Combatants[i]
		roll, err := p.initiative(c, r)
		if err != nil {
			return nil, err
		}
		rolls = append(rolls, roll)
		settle(c)
	}
	slices.SortStableFunc(e.Combatants, byInitiative)
	// A hidden combatant ties only with hidden ones, after those the
	// players see (encounter.BreakTiesSeenFirst).
	more, err := encounter.BreakTiesSeenFirst(e.Combatants,
		func(a, b *encounter.Combatant) bool { return slices.Equal(a.Initiative, b.Initiative) },
		func(group []encounter.Combatant) ([]encounter.Roll, error) { return breakTies(group, 0, r) })
	if err != nil {
		return nil, err
	}
	return append(rolls, more...), nil
}

// Insert rolls a newcomer's initiative the same way and puts it before
// the first combatant it beats on (total, bonus dice): after everyone it
// ties with, who do not roll again.
func (p Policy) Insert(e *encounter.Encounter, c *encounter.Combatant, r dice.Roller) (int, []encounter.Roll, error) {
	roll, err := p.initiative(c, r)
	if err != nil {
		return 0, nil, err
	}
	settle(c)
	rolls := []encounter.Roll{roll}
	for i := range e.Combatants {
		other := e.Combatants[i].Initiative
		if slices.Compare(c.Initiative, other[:min(2, len(other))]) > 0 {
			return i, rolls, nil
		}
	}
	return len(e.Combatants), rolls, nil
}

// initiative rolls c's initiative with Initiative, or takes the score
// given at the table (encounter.StatGiven: the action roll with bonus
// dice, GivenInitiative), and sets its key, its rolls and its first
// round's actions.
func (p Policy) initiative(c *encounter.Combatant, r dice.Roller) (encounter.Roll, error) {
	in, err := initiativeInput(c)
	if err != nil {
		return encounter.Roll{}, err
	}
	var res InitiativeResult
	given, isGiven := encounter.Given(c)
	if isGiven {
		res, err = GivenInitiative(in, given)
	} else {
		res, err = Initiative(in, FromRoller(r))
	}
	if err != nil {
		var de *DiceError
		if errors.As(err, &de) {
			return encounter.Roll{}, fmt.Errorf("roll initiative for %s: %w", c.Name, err)
		}
		return encounter.Roll{}, encounter.Errorf(encounter.ErrInvalid, "%s's initiative: %v", c.Name, err)
	}
	var roll encounter.Roll
	if isGiven {
		roll = encounter.GivenRoll(c, "initiative", given, "the action roll with bonus dice")
	} else {
		roll = encounterRoll(c, "initiative", res.Roll)
	}
	c.Initiative = []int{res.Roll.Total, res.Roll.BonusDice}
	c.InitiativeRolls = []encounter.Roll{roll}
	setStat(c, StatFirstRound, res.FirstRound)
	return roll, nil
}

// initiativeInput reads c's stats for Initiative.
func initiativeInput(c *encounter.Combatant) (InitiativeInput, error) {
	in := InitiativeInput{
		Bonus: Bonus{Dice: c.Stats[StatInitiative], Charges: c.Stats[StatInitCharges],
			Challenges: c.Stats[StatInitChallenges], Wounded: wounded(c)},
		Actions: c.Stats[StatActions],
	}
	if in.Actions < 0 {
		return in, encounter.Errorf(encounter.ErrInvalid, "%s has %d actions: give 1 to %d", c.Name, in.Actions, MaxActions)
	}
	switch {
	case flag(c, StatAmbusher) && flag(c, StatAmbushed):
		return in, encounter.Errorf(encounter.ErrInvalid, "%s is both ambusher and ambushed: give one side", c.Name)
	case flag(c, StatAmbusher):
		in.Ambush = Ambusher
	case flag(c, StatAmbushed):
		in.Ambush = Ambushed
	}
	switch {
	case flag(c, StatWatch) && flag(c, StatWatchOther):
		return in, encounter.Errorf(encounter.ErrInvalid, "%s's Over Watch is both watch and watch_other: the attack came from one vector", c.Name)
	case flag(c, StatWatch):
		in.Watch = Expected
	case flag(c, StatWatchOther):
		in.Watch = OtherVector
	}
	return in, nil
}

// encounterRoll returns a rules Roll as the encounter keeps it.
func encounterRoll(c *encounter.Combatant, what string, r Roll) encounter.Roll {
	out := encounter.Roll{Combatant: c.ID, Name: c.Name, For: what, Expr: r.Expr, Total: r.Total, Secret: c.Hidden}
	if r.Result != nil {
		out.Text = r.Result.String()
		for _, g := range r.Result.Groups {
			for _, d := range g.Dice {
				out.Faces = append(out.Faces, d.Face)
			}
		}
	}
	return out
}

// byInitiative orders combatants by their keys, highest first.
func byInitiative(a, b encounter.Combatant) int { return slices.Compare(b.Initiative, a.Initiative) }

// breakTies rolls a d20 for each combatant of every run of cs tied on
// every key so far, in their order, and sorts the run by it; a run still
// tied rolls again at once.
func breakTies(cs []encounter.Combatant, depth int, r dice.Roller) ([]encounter.Roll, error) {
	var rolls []encounter.Roll
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && slices.Equal(cs[i].Initiative, cs[j].Initiative) {
			j++
		}
		if j-i > 1 && depth < maxTieRolls {
			group := cs[i:j]
			for k := range group {
				c := &group[k]
				roll, err := encounter.RollExpr(r, c, "tie-break", "1d20")
				if err != nil {
					return nil, err
				}
				c.Initiative = append(c.Initiative, roll.Total)
				c.InitiativeRolls = append(c.InitiativeRolls, roll)
				rolls = append(rolls, roll)
			}
			slices.SortStableFunc(group, byInitiative)
			more, err := breakTies(group, depth+1, r)
			if err != nil {
				return nil, err
			}
			rolls = append(rolls, more...)
		}
		i = j
	}
	return rolls, nil
}

// settle marks, as the fight begins or c joins it, the unconscious, the
// dead and the destroyed defeated, and has the winded sit out their next
// turn: "If you exhaust your Vigor, you become Winded, and you cannot take
// any actions."
func settle(c *encounter.Combatant) {
	if t, ok := trackOf(c); ok && (t.Dead || t.Destroyed || t.Unconscious()) {
		c.Defeated = true
	}
	if isWinded(c) {
		setFlag(c, StatWinded, true)
		if !c.Defeated {
			c.Skipping = true
		}
	}
}

// StartTurn reminds a wounded creature of its weaker dice. A delayed turn
// starting again adds nothing.
func (p Policy) StartTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	if c.Delayed || !wounded(c) {
		return nil
	}
	return []encounter.Line{encounter.Linef(c, "%s is wounded: its bonus dice are one step lower.", c.Name)}
}

// EndTurn notes a turn that took more actions than it had.
func (p Policy) EndTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	used, have := c.Counters[CounterActions], allowance(e, c)
	if used <= have {
		return nil
	}
	return []encounter.Line{encounter.Linef(c, "%s took %d actions with %s.", c.Name, used, plural(have, "action"))}
}

// allowance returns c's actions this round: its first round's in round 1,
// else its actions a turn.
func allowance(e *encounter.Encounter, c *encounter.Combatant) int {
	if n, ok := c.Stats[StatFirstRound]; ok && e.Round <= 1 {
		return n
	}
	if n := c.Stats[StatActions]; n > 0 {
		return n
	}
	return BaseActions
}

// Budget says what c may still do this round: its actions left (the
// actions counter taken from its allowance), and, when its Vigor is
// tracked, the Defense reactions it can still pay for.
func (p Policy) Budget(e *encounter.Encounter, c *encounter.Combatant) string {
	if t, ok := trackOf(c); ok {
		switch {
		case t.Dead:
			return "dead"
		case t.Destroyed:
			return "destroyed"
		case t.Unconscious():
			return "unconscious in Shock: no actions or reactions"
		}
	}
	var parts []string
	if isWinded(c) {
		parts = append(parts, fmt.Sprintf("winded: no actions until it has %d Vigor", WindedUntil))
	} else {
		s := plural(max(allowance(e, c)-c.Counters[CounterActions], 0), "action")
		if e.Round <= 1 {
			switch {
			case flag(c, StatAmbushed) || flag(c, StatWatchOther):
				s += " (ambushed)"
			case flag(c, StatAmbusher):
				s += " (ambusher)"
			}
		}
		parts = append(parts, s)
	}
	if v, ok := vigorLeft(c); ok {
		cost := DefenseVigor
		if hasCondition(c, ConditionDefending) {
			cost -= DefendDiscount
		}
		parts = append(parts, fmt.Sprintf("%s off its turn (Vigor %d, Defense costs %d)", plural(v/cost, "reaction"), v, cost))
	}
	if n := c.Counters[CounterReactions]; n > 0 {
		parts = append(parts, fmt.Sprintf("%s taken this round", plural(n, "reaction")))
	}
	if m, ok := c.Resources[ResourceMana]; ok {
		parts = append(parts, fmt.Sprintf("Mana %d", max(m-c.Counters[CounterMana], 0)))
	}
	return strings.Join(parts, ", ")
}

// vigorLeft returns c's Vigor less what it spent this round; ok is false
// when its Vigor is not tracked.
func vigorLeft(c *encounter.Combatant) (int, bool) {
	v, ok := c.Resources[ResourceVigor]
	if !ok {
		return 0, false
	}
	return max(v-c.Counters[CounterVigor], 0), true
}

// isWinded: "If you exhaust your Vigor, you become Winded ... This
// condition remains until you recover at least 5 points of Vigor." Only a
// combatant whose Vigor is tracked can be winded.
func isWinded(c *encounter.Combatant) bool {
	v, ok := vigorLeft(c)
	return ok && (flag(c, StatWinded) || v == 0)
}

// wounded: "Once you have taken enough damage to reduce your Durability to
// 0, you become wounded."
func wounded(c *encounter.Combatant) bool {
	t, ok := trackOf(c)
	return ok && t.Wounded()
}

func flag(c *encounter.Combatant, stat string) bool { return c.Stats[stat] != 0 }

func setStat(c *encounter.Combatant, stat string, v int) {
	if c.Stats == nil {
		c.Stats = map[string]int{}
	}
	c.Stats[stat] = v
}

// setFlag sets a flag stat to 1, or removes it.
func setFlag(c *encounter.Combatant, stat string, on bool) {
	if on {
		setStat(c, stat, 1)
		return
	}
	delete(c.Stats, stat)
}

func hasCondition(c *encounter.Combatant, name string) bool {
	return slices.ContainsFunc(c.Conditions, func(cd encounter.Condition) bool { return strings.EqualFold(cd.Name, name) })
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
