package xhalem

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// SystemName is the name of the xhalem rule system, as in
// encounter.Encounter.System.
const SystemName = "xhalem"

// Stats the encounter policy reads (what /init add accepts for an xhalem
// fight). docs/xhalem.md lists them with the text they rest on.
const (
	// StatMachine says what the combatant is: 1 a machine (it rolls
	// Engine), 0 a creature (it rolls Evasion). Without it, a combatant
	// with an engine stat and no evasion stat is a machine, any other a
	// creature; one with both must say.
	StatMachine = "machine"
	// StatEngine and StatEvasion are the scores added to the Initiative
	// d20 ("add your Engine score to 1D20", "add your Evasion score to
	// 1D20"), and compared when two players tie.
	StatEngine  = "engine"
	StatEvasion = "evasion"
	// StatInitBonus is "whatever other benefits or penalties" to the
	// Initiative roll.
	StatInitBonus = "init_bonus"
	// StatGroup puts the Architect's combatants in a group that rolls one
	// Initiative for all ("The Architect would roll 1D20 for the whole
	// group"): those with the same number, other than 0.
	StatGroup = "group"
	// StatSecondary is how many secondary actions a turn grants ("only
	// under the conditions outlined by the specialty, program, or weapon
	// that allows for this type of action"); none without it.
	StatSecondary = "secondary"
	// StatReactions is how many reactions the combatant may take in a
	// round; without it the budget counts none (the text sets no limit).
	StatReactions = "reactions"
	// StatSpeed is the base speed: a creature's race speed in feet, a
	// machine's in hexes (35 for a gargantuan mech); without it, a mech's
	// 25 hexes or Config.CreatureSpeed feet.
	StatSpeed = "speed"
)

// TrackHP is the resource damage and healing apply to: the text has no
// damage track of its own.
const TrackHP = "hp"

// Counters the policy's budget reads. They count within a round (one turn
// each) and go back to 0 when a round begins.
const (
	CounterAction    = "action"    // primary actions taken
	CounterSecondary = "secondary" // secondary actions taken
	CounterDash      = "dash"      // 1: the action was a dash or thrust, which doubles the speed
	CounterMoved     = "moved"     // feet (creature) or hexes (machine) moved
	CounterReactions = "reactions" // reactions taken
)

// Conditions the policy reads, by name (any case).
const (
	CondGrappled       = "grappled"        // no movement; an action may break free
	CondGrappling      = "grappling"       // no other action; movement only after a check
	CondImmobilized    = "immobilized"     // no movement, no reactions
	CondIncapacitated  = "incapacitated"   // no reactions
	CondImmersed       = "immersed"        // fully immersed: fire immunity, electrical vulnerability
	CondPartlyImmersed = "partly immersed" // electrical vulnerability
	CondInsideMech     = "inside mech"     // a creature inside a mech: electrical immunity
)

// maxRerolls bounds the rerolls of one tie, so that physical dice that keep
// tying end; those still tied keep the order they were added in.
const maxRerolls = 5

// beginMarker is a counter Order puts on every combatant and the first
// turn's StartTurn takes off, so that the notes on the order go with the
// fight's beginning and nowhere else. It never outlives Begin.
const beginMarker = "xhalem.begin"

// Policy is the encounter policy of the xhalem rules:
//
//   - Order: each combatant rolls 1d20 + Engine (machine) or Evasion
//     (creature) + init_bonus, in the order of the list; the Architect's
//     combatants with the same group stat roll once, when the first of
//     them comes up, and share the total. Highest first. Ties are settled
//     as the text says, with [Before]: among the Architect's combatants
//     the Architect orders, so they stay in the order of the list (the
//     Begin lines say so; /init move changes it); a tie between both sides
//     is rerolled by everyone in it; players' ties go to the higher Engine
//     or Evasion, equal ones reroll. A reroll is a new Initiative roll
//     that orders only those tied; their own new ties are settled the same
//     way, at most 5 rerolls deep. Dice: every initiative roll first, in
//     the order of the list; then the rerolls, tie by tie from the top of
//     the order down, those in a tie in the order of the list, and a
//     reroll's own new ties before the next tie.
//   - Insert: a newcomer of a group already in the fight takes its
//     Initiative and goes after it, rolling nothing; any other rolls and
//     goes before the first combatant it beats, settling each tie it meets
//     going down the order with the same rules (its reroll, then the other's).
//   - Turns: counters reset when a round begins (one turn a round); the
//     budget is one action and one movement, secondary actions after the
//     action, what grapples allow; the end of a round notes the game time.
//   - Damage: the "hp" resource, with the water rules of [WaterEffect] for
//     fire and electrical damage; Heal as encounter.Base.
type Policy struct {
	encounter.Base
	cfg Config
}

// NewPolicy returns the encounter policy of the xhalem rules with cfg.
func NewPolicy(cfg Config) encounter.Policy {
	return Policy{Base: encounter.Base{Track: TrackHP, CounterReset: encounter.ResetRound}, cfg: cfg}
}

// Name returns "xhalem".
func (Policy) Name() string { return SystemName }

// unit is one Initiative roll's worth of combatants: one combatant, or an
// Architect's group.
type unit struct {
	members []encounter.Combatant // in the order of the list
	in      InitiativeInput
	side    Side
	key     []int
	rolls   []encounter.Roll
}

func (u *unit) entry() Combatant {
	return Combatant{Total: u.key[len(u.key)-1], Score: u.in.Score, Side: u.side}
}

// Order rolls Initiative and sorts the order: see Policy.
func (p Policy) Order(e *encounter.Encounter, r dice.Roller) ([]encounter.Roll, error) {
	var units []*unit
	groups := map[int]*unit{}
	for i := range e.Combatants {
		c := e.Combatants[i]
		in, side, err := initiativeOf(&c)
		if err != nil {
			return nil, err
		}
		g := c.Stats[StatGroup]
		if u := groups[g]; g != 0 && u != nil {
			u.members = append(u.members, c)
			continue
		}
		u := &unit{members: []encounter.Combatant{c}, in: in, side: side}
		if g != 0 {
			groups[g] = u
		}
		units = append(units, u)
	}
	var rolls []encounter.Roll
	for _, u := range units {
		what := "initiative"
		if len(u.members) > 1 {
			what = "group initiative"
		}
		roll, err := firstRoll(u, what, r)
		if err != nil {
			return nil, err
		}
		u.key = []int{roll.Total}
		rolls = append(rolls, roll)
	}
	sortUnits(units)
	more, err := settleRuns(units, 0, r)
	if err != nil {
		return nil, err
	}
	rolls = append(rolls, more...)
	i := 0
	for _, u := range units {
		for _, c := range u.members {
			c.Initiative = slices.Clone(u.key)
			c.InitiativeRolls = cloneRolls(u.rolls)
			if c.Counters == nil {
				c.Counters = map[string]int{}
			}
			c.Counters[beginMarker] = 1
			e.Combatants[i] = c
			i++
		}
	}
	return rolls, nil
}

// firstRoll is the unit's first Initiative: the score its first member
// was given at the table (encounter.StatGiven: "1D20 + Engine or Evasion",
// no die rolled), else rollFor's. A tie is settled by the text's rules
// either way: a reroll is rolled.
func firstRoll(u *unit, what string, r dice.Roller) (encounter.Roll, error) {
	given, ok := encounter.Given(&u.members[0])
	if !ok {
		return rollFor(u, what, r)
	}
	is := "1d20 + Evasion"
	if u.in.Kind == Machine {
		is = "1d20 + Engine"
	}
	roll := encounter.GivenRoll(&u.members[0], what, given, is)
	if len(u.members) > 1 {
		g := toRoll(&dice.Result{}, u.members, what)
		roll.Name, roll.Secret = g.Name, g.Secret
	}
	u.rolls = append(u.rolls, roll)
	return roll, nil
}

// rollFor rolls the unit's Initiative ("initiative", "group initiative",
// "reroll"), keeps the roll on it and returns it.
func rollFor(u *unit, what string, r dice.Roller) (encounter.Roll, error) {
	res, err := RollInitiative(u.in, Dice(r))
	if err != nil {
		return encounter.Roll{}, fmt.Errorf("%s for %s: %w", what, u.members[0].Name, err)
	}
	roll := toRoll(res.Result, u.members, what)
	u.rolls = append(u.rolls, roll)
	return roll, nil
}

// toRoll is a roll of the combatants cs (one, or a group) for the event.
func toRoll(res *dice.Result, cs []encounter.Combatant, what string) encounter.Roll {
	names := make([]string, len(cs))
	secret := false
	for i := range cs {
		names[i] = cs[i].Name
		secret = secret || cs[i].Hidden
	}
	roll := encounter.Roll{Combatant: cs[0].ID, Name: strings.Join(names, ", "), For: what,
		Expr: res.Expr, Total: res.Total, Text: res.String(), Secret: secret}
	for _, g := range res.Groups {
		for _, d := range g.Dice {
			roll.Faces = append(roll.Faces, d.Face)
		}
	}
	return roll
}

// settleRuns settles every run of units with equal keys in us, sorted.
//
// A hidden unit (every member hidden) ties only with hidden ones, after
// those the players see, and their ties are settled after every tie of
// those the players see: no one the players see rerolls because of a
// hidden combatant, and the players' rerolls are the dice they would be
// without it (issue 20; encounter.BreakTiesSeenFirstFunc).
func settleRuns(us []*unit, rerolls int, r dice.Roller) ([]encounter.Roll, error) {
	return encounter.BreakTiesSeenFirstFunc(us,
		func(a, b **unit) bool { return slices.Equal((*a).key, (*b).key) },
		func(u **unit) bool { return (*u).hidden() },
		func(run []*unit) ([]encounter.Roll, error) { return settle(run, rerolls, r) })
}

// hidden reports whether the players see none of the unit's members.
func (u *unit) hidden() bool {
	return !slices.ContainsFunc(u.members, func(c encounter.Combatant) bool { return !c.Hidden })
}

// settle orders units tied on their keys so far, as [Before] says: a tie
// between both sides is rerolled by all in it; players go by the higher
// score, those still tied reroll; the Architect's keep their order.
func settle(us []*unit, rerolls int, r dice.Roller) ([]encounter.Roll, error) {
	mixed := slices.ContainsFunc(us, func(u *unit) bool { return u.side != us[0].side })
	if !mixed {
		scores := slices.ContainsFunc(us, func(u *unit) bool { return u.in.Score != us[0].in.Score })
		if us[0].side == Player && scores {
			slices.SortStableFunc(us, func(a, b *unit) int {
				first, _ := Before(a.entry(), b.entry())
				return -first
			})
			for _, u := range us {
				u.key = append(u.key, u.in.Score)
			}
			return settleRuns(us, rerolls, r)
		}
		if _, tie := Before(us[0].entry(), us[1].entry()); tie != TieReroll {
			return nil, nil // the Architect orders: they keep the order of the list
		}
	}
	if rerolls >= maxRerolls {
		return nil, nil
	}
	var rolls []encounter.Roll
	for _, u := range us {
		roll, err := rollFor(u, "reroll", r)
		if err != nil {
			return nil, err
		}
		u.key = append(u.key, roll.Total)
		rolls = append(rolls, roll)
	}
	sortUnits(us)
	more, err := settleRuns(us, rerolls+1, r)
	if err != nil {
		return nil, err
	}
	return append(rolls, more...), nil
}

// sortUnits puts the highest Initiative key first, compared element by
// element (slices.Compare: a missing element ranks below any value).
func sortUnits(us []*unit) {
	slices.SortStableFunc(us, func(a, b *unit) int { return slices.Compare(b.key, a.key) })
}

// Insert places a newcomer: see Policy.
func (p Policy) Insert(e *encounter.Encounter, c *encounter.Combatant, r dice.Roller) (int, []encounter.Roll, error) {
	in, side, err := initiativeOf(c)
	if err != nil {
		return 0, nil, err
	}
	if g := c.Stats[StatGroup]; g != 0 {
		last := -1
		for i := range e.Combatants {
			if groupOf(&e.Combatants[i]) == g {
				last = i
			}
		}
		if last >= 0 {
			c.Initiative = slices.Clone(e.Combatants[last].Initiative)
			c.InitiativeRolls = cloneRolls(e.Combatants[last].InitiativeRolls)
			return last + 1, nil, nil
		}
	}
	u := &unit{members: []encounter.Combatant{*c}, in: in, side: side}
	roll, err := firstRoll(u, "initiative", r)
	if err != nil {
		return 0, nil, err
	}
	rolls := []encounter.Roll{roll}
	pos, more, err := place(e, u, roll.Total, r)
	if err != nil {
		return 0, nil, err
	}
	c.Initiative = []int{roll.Total}
	c.InitiativeRolls = u.rolls
	return pos, append(rolls, more...), nil
}

// place finds the newcomer u's place in the order for its Initiative total:
// before the first combatant it beats, settling each tie on the way.
func place(e *encounter.Encounter, u *unit, total int, r dice.Roller) (int, []encounter.Roll, error) {
	var rolls []encounter.Roll
	for i := 0; i < len(e.Combatants); i++ {
		o := &e.Combatants[i]
		if len(o.Initiative) == 0 || total > o.Initiative[0] {
			return i, rolls, nil
		}
		if total < o.Initiative[0] {
			continue
		}
		oin, oside, err := initiativeOf(o)
		if err != nil {
			return 0, nil, err
		}
		ou := &unit{members: []encounter.Combatant{*o}, in: oin, side: oside}
		first, more, err := meet(u, ou, total, r)
		rolls = append(rolls, more...)
		if err != nil {
			return 0, nil, err
		}
		if first {
			return i, rolls, nil
		}
		// Not between the members of a group.
		for g := groupOf(o); g != 0 && i+1 < len(e.Combatants) && groupOf(&e.Combatants[i+1]) == g; {
			i++
		}
	}
	return len(e.Combatants), rolls, nil
}

// meet settles a tie at total between a newcomer and a combatant in the
// fight, by [Before]: first is true when the newcomer goes first. A tie the
// Architect orders, or one still tied after maxRerolls, leaves the
// newcomer after, as it was added last.
func meet(nu, o *unit, total int, r dice.Roller) (first bool, rolls []encounter.Roll, err error) {
	nu.key, o.key = []int{total}, []int{total}
	for n := 0; ; n++ {
		f, tie := Before(nu.entry(), o.entry())
		switch {
		case f != 0:
			return f > 0, rolls, nil
		case tie != TieReroll || n >= maxRerolls:
			return false, rolls, nil
		}
		for _, u := range []*unit{nu, o} {
			roll, err := rollFor(u, "reroll", r)
			if err != nil {
				return false, rolls, err
			}
			u.key = append(u.key, roll.Total)
			rolls = append(rolls, roll)
		}
	}
}

// initiativeOf reads what c rolls for Initiative and whose side it is on,
// reporting the user's mistakes.
func initiativeOf(c *encounter.Combatant) (InitiativeInput, Side, error) {
	k, err := kindOf(c)
	if err != nil {
		return InitiativeInput{}, "", err
	}
	side := sideOf(c)
	if c.Stats[StatGroup] != 0 && side != Architect {
		return InitiativeInput{}, "", encounter.Errorf(encounter.ErrInvalid,
			"%s is a player's combatant: only the Architect's roll as a group; remove its %s stat", c.Name, StatGroup)
	}
	stat := InitiativeStat(k)
	in := InitiativeInput{Kind: k, Score: c.Stats[stat], Bonus: c.Stats[StatInitBonus]}
	if n := in.Score + in.Bonus; n < -MaxScore || n > MaxScore {
		return InitiativeInput{}, "", encounter.Errorf(encounter.ErrInvalid,
			"%s's %s and %s add up to %d: an Initiative roll takes at most ±%d", c.Name, stat, StatInitBonus, n, MaxScore)
	}
	return in, side, nil
}

// kindOf reads whether c is a machine or a creature.
func kindOf(c *encounter.Combatant) (Kind, error) {
	if v, ok := c.Stats[StatMachine]; ok {
		switch v {
		case 1:
			return Machine, nil
		case 0:
			return Creature, nil
		}
		return "", encounter.Errorf(encounter.ErrInvalid,
			"%s has %s=%d: use %s=1 for a machine or %s=0 for a creature", c.Name, StatMachine, v, StatMachine, StatMachine)
	}
	_, engine := c.Stats[StatEngine]
	_, evasion := c.Stats[StatEvasion]
	switch {
	case engine && evasion:
		return "", encounter.Errorf(encounter.ErrInvalid,
			"%s has both engine and evasion: give it %s=1 (a machine, rolling Engine) or %s=0 (a creature, rolling Evasion)",
			c.Name, StatMachine, StatMachine)
	case engine:
		return Machine, nil
	}
	return Creature, nil
}

// sideOf is the Architect for the GM's combatants, else a player.
func sideOf(c *encounter.Combatant) Side {
	if c.NPC {
		return Architect
	}
	return Player
}

// groupOf is c's group, 0 for none (or a player's).
func groupOf(c *encounter.Combatant) int {
	if !c.NPC {
		return 0
	}
	return c.Stats[StatGroup]
}

// StartTurn says, at the first turn of the fight, how the order's ties were
// left to the Architect; and reminds a grappled or grappling combatant of
// what the text lets it do.
func (p Policy) StartTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	var lines []encounter.Line
	if beginning(e) {
		lines = append(lines, orderNotes(e)...)
	}
	k, err := kindOf(c)
	if err != nil {
		k = Creature // Order and Insert refused it already; a guess for a reminder
	}
	if hasCondition(c, CondGrappled) {
		lines = append(lines, encounter.Linef(c,
			"%s is grappled: it can use its action to break free, 1d20 + %s against the grappler's (/xhalem escape); failing, it cannot move or take any further action.",
			c.Name, titled(MightStat(k))))
	}
	if hasCondition(c, CondGrappling) {
		lines = append(lines, encounter.Linef(c,
			"%s is grappling: it takes no other action and moves only after a successful check; letting go takes no action.", c.Name))
	}
	return lines
}

// beginning reports whether this is the first turn since Order, taking
// Order's marker off every combatant.
func beginning(e *encounter.Encounter) bool {
	found := false
	for i := range e.Combatants {
		if _, ok := e.Combatants[i].Counters[beginMarker]; ok {
			found = true
			delete(e.Combatants[i].Counters, beginMarker)
		}
	}
	return found
}

// orderNotes tells how the ties of the order were settled where no roll
// shows it: a group's shared roll, ties left to the Architect, ties still
// standing after the rerolls.
func orderNotes(e *encounter.Encounter) []encounter.Line {
	var lines []encounter.Line
	cs := e.Combatants
	for i := 0; i < len(cs); {
		// A unit: one combatant, or a group's members one after another.
		j := i + 1
		for g := groupOf(&cs[i]); g != 0 && j < len(cs) && groupOf(&cs[j]) == g; {
			j++
		}
		if j-i > 1 {
			lines = append(lines, about(cs[i:j], "%s roll as group %d: one Initiative, %d, for all; they act one after another.",
				names(cs[i:j]), groupOf(&cs[i]), total(&cs[i])))
		}
		i = j
	}
	for i := 0; i < len(cs); {
		j := i + 1
		for j < len(cs) && len(cs[i].Initiative) > 0 && slices.Equal(cs[i].Initiative, cs[j].Initiative) {
			j++
		}
		run := cs[i:j]
		i = j
		if len(run) < 2 || (groupOf(&run[0]) != 0 && groupOf(&run[0]) == groupOf(&run[len(run)-1])) {
			continue // alone, or one group
		}
		if slices.ContainsFunc(run, func(c encounter.Combatant) bool { return !c.NPC }) {
			lines = append(lines, about(run, "%s are still tied at %d after %d rerolls: they keep the order of the list; /init move changes it.",
				names(run), total(&run[0]), maxRerolls))
			continue
		}
		lines = append(lines, about(run, "%s tie at %d: the Architect determines the order of the Architect's combatants, so they keep the order they were added in; /init move changes it.",
			names(run), total(&run[0])))
	}
	return lines
}

// about is a line about cs, secret when one of them is hidden.
func about(cs []encounter.Combatant, format string, args ...any) encounter.Line {
	l := encounter.Linef(nil, format, args...)
	l.Secret = slices.ContainsFunc(cs, func(c encounter.Combatant) bool { return c.Hidden })
	return l
}

func total(c *encounter.Combatant) int {
	if len(c.Initiative) == 0 {
		return 0
	}
	return c.Initiative[0]
}

// names is "A", "A and B" or "A, B and C".
func names(cs []encounter.Combatant) string {
	s := make([]string, len(cs))
	for i := range cs {
		s[i] = cs[i].Name
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// EndRound notes the game time: "each round is 10 seconds, regardless of
// how many characters/turns".
func (p Policy) EndRound(e *encounter.Encounter) []encounter.Line {
	return []encounter.Line{encounter.Linef(nil, "End of round %d: %s of game time so far (a round is %d seconds).",
		e.Round, gameTime(e.Round*RoundSeconds), RoundSeconds)}
}

// gameTime is "40 seconds", "1 minute", "2 minutes 30 seconds".
func gameTime(s int) string {
	m, s := s/60, s%60
	var parts []string
	if m > 0 {
		parts = append(parts, plural(m, "minute"))
	}
	if s > 0 || m == 0 {
		parts = append(parts, plural(s, "second"))
	}
	return strings.Join(parts, " ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Budget says what c may still do this round: "1 action, 25 hexes of
// movement" ("each player or the Architect can take one action and one
// movement on their turn"), with secondary actions after the action and
// reactions when its stats grant them, less what its counters say it
// used, and what grapples and immobility take away.
func (p Policy) Budget(e *encounter.Encounter, c *encounter.Combatant) string {
	k, err := kindOf(c)
	if err != nil {
		k = Creature // Order and Insert refused it already
	}
	grappled, grappling := hasCondition(c, CondGrappled), hasCondition(c, CondGrappling)
	immobilized := hasCondition(c, CondImmobilized)
	dashed := c.Counters[CounterDash] > 0
	acted := c.Counters[CounterAction] > 0 || dashed
	secondaries := c.Counters[CounterSecondary]
	var parts []string
	switch {
	case grappling:
		parts = append(parts, "no other action while grappling")
	case acted:
		parts = append(parts, "no action")
	case secondaries > 0:
		// "you can not take a secondary action first and then a primary action"
		parts = append(parts, "no action after a secondary one")
	default:
		parts = append(parts, "1 action")
	}
	if n := c.Stats[StatSecondary] - secondaries; n > 0 && !grappling {
		s := plural(n, "secondary action")
		if !acted && secondaries == 0 {
			s += " after it"
		}
		parts = append(parts, s)
	}
	switch {
	case grappled:
		parts = append(parts, "no movement while grappled")
	case immobilized:
		parts = append(parts, "no movement while immobilized")
	case grappling:
		parts = append(parts, "movement only after a successful check")
	default:
		parts = append(parts, p.movement(k, c, dashed))
	}
	if immobilized || hasCondition(c, CondIncapacitated) {
		// "If you are immobilize or otherwise incapacitated, you can not
		// react in any way."
		parts = append(parts, "no reactions")
	} else if n, ok := c.Stats[StatReactions]; ok {
		parts = append(parts, plural(max(0, n-c.Counters[CounterReactions]), "reaction"))
	}
	return strings.Join(parts, ", ")
}

// movement is what is left of c's movement this turn, from Speed: its base
// speed, doubled by a dash or thrust, less what it moved.
func (p Policy) movement(k Kind, c *encounter.Combatant, dashed bool) string {
	unit := "feet"
	if k == Machine {
		unit = "hexes"
	}
	speed := 0
	if base, ok := c.Stats[StatSpeed]; !ok || base > 0 {
		res, err := Speed(SpeedInput{Kind: k, Base: min(base, MaxScore), Dash: dashed}, p.cfg)
		if err != nil {
			return "movement unknown: " + err.Error()
		}
		speed = res.Total
	}
	moved := c.Counters[CounterMoved]
	left := Remaining(speed, moved)
	switch {
	case left == 0:
		return "no movement"
	case moved > 0:
		return fmt.Sprintf("%d of %d %s of movement", left, speed, unit)
	}
	return fmt.Sprintf("%d %s of movement", speed, unit)
}

// Damage lowers hp by amount, first applying the water rules of
// [WaterEffect] to fire and electrical damage: the target's immersed,
// partly immersed and inside mech conditions say where it is. kind is a
// damage type ("fire", "electrical") or anything else, which water leaves
// alone. At 0 hp the combatant is defeated.
func (p Policy) Damage(e *encounter.Encounter, c *encounter.Combatant, amount int, kind string) (string, error) {
	was, ok := c.Resources[TrackHP]
	if !ok {
		return "", encounter.Errorf(encounter.ErrInvalid,
			"%s has no %s to take damage from: give it %s when adding it", c.Name, TrackHP, TrackHP)
	}
	t, err := ParseDamageType(strings.ToLower(kind))
	if err != nil {
		t = OtherDamage // a type water does not change: "kinetic", "acid"
	}
	at := NotImmersed
	switch {
	case hasCondition(c, CondImmersed):
		at = Immersed
	case hasCondition(c, CondPartlyImmersed):
		at = Partly
	}
	inside := hasCondition(c, CondInsideMech)
	immune, vulnerable := WaterEffect(t, at, inside)
	dealt, why := amount, ""
	switch {
	case immune && inside:
		dealt, why = 0, fmt.Sprintf(" (%d, unaffected inside a mech)", amount)
	case immune:
		dealt, why = 0, fmt.Sprintf(" (%d, immune while %s)", amount, immersion(at))
	case vulnerable:
		m := p.cfg.VulnerableMultiplier
		if m < 1 {
			return "", fmt.Errorf("xhalem config: vulnerable_multiplier %d: at least 1", m)
		}
		dealt = math.MaxInt32 // no hp survives it; and no overflow
		if amount == 0 || m <= math.MaxInt32/amount {
			dealt = amount * m
		}
		why = fmt.Sprintf(" (%d × %d, vulnerable while %s)", amount, m, immersion(at))
	}
	if amount > 0 {
		dealt = max(dealt, p.cfg.MinDamage)
	}
	now := max(was-dealt, 0)
	c.Resources[TrackHP] = now
	what := "damage"
	if kind != "" {
		what = kind + " damage"
	}
	s := fmt.Sprintf("%s took %d %s%s (%s %d -> %d)", c.Name, dealt, what, why, TrackHP, was, now)
	if now == 0 && !c.Defeated {
		c.Defeated = true
		s += ": defeated"
	}
	return s, nil
}

func immersion(at Immersion) string {
	if at == Immersed {
		return "fully immersed"
	}
	return "partly immersed"
}

// hasCondition reports whether c has the condition named, ignoring case.
func hasCondition(c *encounter.Combatant, name string) bool {
	return slices.ContainsFunc(c.Conditions, func(cd encounter.Condition) bool {
		return strings.EqualFold(strings.TrimSpace(cd.Name), name)
	})
}

func titled(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func cloneRolls(rs []encounter.Roll) []encounter.Roll {
	if rs == nil {
		return nil
	}
	out := make([]encounter.Roll, len(rs))
	for i, r := range rs {
		r.Faces = slices.Clone(r.Faces)
		out[i] = r
	}
	return out
}
