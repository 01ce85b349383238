package ulm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// SystemName is the name of the ulm rule system in an encounter.
const SystemName = "ulm"

// Stats the policy reads, given when a combatant is added ("/init add"). A
// ulm character sheet holds the same names.
const (
	// StatHP is the Hit Points: "The Hit Point pool of a Character is a
	// static value". A resource "hp" given instead is read the same.
	StatHP = "hp"
	// StatAgility, StatAlacrity, StatBonus and StatDilation decide the
	// Action Slots an Active Phase begins with (see ActionSlots): Agility,
	// the strongest source of Enhanced Alacrity, the one source of Bonus
	// Action Slots that counts, and all Time Dilation stacked.
	StatAgility  = "agility"
	StatAlacrity = "alacrity"
	StatBonus    = "bonus"
	StatDilation = "dilation"
	// StatReserved, when given, is the Reserved Slots the combatant holds
	// in each of its Reserve Phases, whatever it left unspent.
	StatReserved = "reserved"
	// StatInitiative, when given, places the combatant in the order,
	// highest first: the text gives no roll for it.
	StatInitiative = "initiative"
	// StatAccuracy is added to the v:20 of a Jump's or a Leap's Accuracy
	// Check (Policy.Move).
	StatAccuracy = "accuracy"
	// StatMitigation, StatAmplification and StatWeakness are the
	// Victim's Mitigation, Amplification and Weakness of all sources, read
	// by Policy.Injure when the Injury does not give them.
	StatMitigation    = "mitigation"
	StatAmplification = "amplification"
	StatWeakness      = "weakness"
	// StatDamage, StatHoly, StatSpite, StatVulnerable, StatShock,
	// StatKnockedOut and StatMaimed are a sheet's state, as /ulm reads it:
	// damage already on Injury Cards besides Holy and Spite, Holy, Spite,
	// Vulnerable (0 or 1; default: damage exceeds hp), minutes of Shock
	// left, Full Rounds Knocked Out left, hours since the Maim. They are
	// read once, when the combatant's state is first kept.
	StatDamage     = "damage"
	StatHoly       = "holy"
	StatSpite      = "spite"
	StatVulnerable = "vulnerable"
	StatShock      = "shock"
	StatKnockedOut = "knocked_out"
	StatMaimed     = "maimed"
)

// Resources the policy keeps: a combatant's State and its slots. The
// statuses are written while they hold and removed when they end.
const (
	// ResDamage is the running total of the Injury Panel: the damage
	// track.
	ResDamage = "damage"
	// ResInjury + a damage type ("injury_incision") is the damage of that
	// type on the panel; ResUntyped the damage whose type was not recorded
	// (a sheet's "damage", or a "damage" resource given by hand).
	ResInjury  = "injury_"
	ResUntyped = "injury_untyped"
	// ResVulnerable, ResDead and ResMaimed are 1 while the status holds.
	ResVulnerable = "vulnerable"
	ResDead       = "dead"
	ResMaimed     = "maimed"
	// ResMaimSeconds, ResShockSeconds and ResKnockedOutSeconds are the time
	// left, in seconds: to reverse the Maim, in Shock, Knocked Out.
	// ResFadingSeconds is the time since Holy and Spite damage last faded.
	ResMaimSeconds       = "maim_seconds"
	ResShockSeconds      = "shock_seconds"
	ResKnockedOutSeconds = "knocked_out_seconds"
	ResFadingSeconds     = "fading_seconds"
	// ResSlots is the Action Slots gained when the combatant's last Active
	// Phase began; ResReserved the Reserved Slots it holds in its Reserve
	// Phase. Counters of the same names count those spent.
	ResSlots    = "slots"
	ResReserved = "reserved"
	// ResMomentum is 1 while the combatant has Momentum: in its Active
	// Phase, and from the end of an Active Phase that carries it into the
	// next.
	ResMomentum = "momentum"
	// ResFallSlots is the Action Slots a fall begun outside the
	// combatant's Active Phase consumes when the next one begins:
	// "Characters do not begin falling until they gain their Action
	// Slots." It is removed when they are spent.
	ResFallSlots = "fall_slots"
	// ResFallPaid is the Action Slots a fall consumed when this Active
	// Phase began, kept until the phase ends: a delayed phase (/init
	// delay) begins again and gains its slots anew, and the fall consumes
	// them again. Removed at the end of the phase.
	ResFallPaid = "fall_paid"
)

// Counters the policy reads. They reset at the start of the combatant's
// own turn, when its Active Phase begins.
const (
	// CountSlots is the Action Slots spent in this Active Phase;
	// CountReserved the Reserved Slots spent since it ended.
	CountSlots    = "slots"
	CountReserved = "reserved"
	// CountMomentumNext is set (to 1 or more) when the last Action Slot of
	// the Active Phase went on a Jog or on Momentum: "If we end our Active
	// Phase by spending our last available Action Slot on either Jog, or
	// Momentum, we begin our next Active Phase with Momentum."
	CountMomentumNext = "momentum_next"
)

// Policy is the encounter policy of ulm. Each combatant's turn is its
// Active Phase: it gains its Action Slots as it begins and spends them;
// the rest of the round it is in its Reserve Phase, with Reserved Slots
// for Responsive Actions. Each round is one Full Round of the clock that
// Shock, Knocked Out, the Maim window and fading run on. See docs/ulm.md,
// "Encounters".
type Policy struct {
	encounter.Base
	cfg Config
}

// NewPolicy returns the policy with cfg. The zero Config means the
// documented defaults; any other must be valid (Config.Validate): an
// invalid one is a wiring mistake, and panics.
func NewPolicy(cfg Config) encounter.Policy { return newPolicy(cfg) }

func newPolicy(cfg Config) Policy {
	if cfg == (Config{}) {
		cfg = DefaultConfig()
	}
	if err := cfg.Validate(); err != nil {
		panic("ulm: NewPolicy: " + err.Error())
	}
	return Policy{Base: encounter.Base{Track: ResDamage, CounterReset: encounter.ResetTurn}, cfg: cfg}
}

// Name returns "ulm".
func (Policy) Name() string { return SystemName }

// Order sorts the Active Phases of the fight. The text gives no roll and
// no rule for their order (its Time chapter is not included), so it rolls
// no dice: those with an "initiative" stat come first, highest first, and
// the others after them; ties keep the order the combatants were added
// in, which the GM can change with Move. It also starts keeping each
// combatant's state, and sets Skipping for the Knocked Out.
func (p Policy) Order(e *encounter.Encounter, r dice.Roller) ([]encounter.Roll, error) {
	var rolls []encounter.Roll
	for i := range e.Combatants {
		given, err := p.join(&e.Combatants[i])
		if err != nil {
			return nil, err
		}
		rolls = append(rolls, given...)
	}
	// Highest key first, element by element (slices.Compare: a missing
	// element ranks below any value).
	slices.SortStableFunc(e.Combatants, func(a, b encounter.Combatant) int { return slices.Compare(b.Initiative, a.Initiative) })
	return rolls, nil
}

// givenIs is what an initiative given at the table is in ulm, whose text
// rolls none: a place in the order, highest first.
const givenIs = "ulm rolls none: a place in the order, highest first"

// Insert places a newcomer by its "initiative" stat, after everyone it
// ties with, or last without one. It rolls no dice.
func (p Policy) Insert(e *encounter.Encounter, c *encounter.Combatant, r dice.Roller) (int, []encounter.Roll, error) {
	rolls, err := p.join(c)
	if err != nil {
		return 0, nil, err
	}
	for i := range e.Combatants {
		if slices.Compare(c.Initiative, e.Combatants[i].Initiative) > 0 {
			return i, rolls, nil
		}
	}
	return len(e.Combatants), rolls, nil
}

// join readies c for the fight: checks its stats, keeps its state, sets
// its place in the order, the Reserved Slots it holds before its first
// Active Phase, and whether it sits out. It returns the roll of an
// initiative given at the table (encounter.StatGiven), which it takes
// for the place, if c has one.
func (p Policy) join(c *encounter.Combatant) ([]encounter.Roll, error) {
	s, ok, err := p.load(c)
	if err != nil {
		return nil, err
	}
	if _, err := p.slots(c, s); err != nil {
		return nil, encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
	}
	if v, ok := c.Stats[StatReserved]; ok && v < 0 {
		return nil, encounter.Errorf(encounter.ErrInvalid, "%s: reserved is %d: Reserved Slots are 0 or more", c.Name, v)
	}
	c.Initiative, c.InitiativeRolls = nil, nil
	if v, ok := c.Stats[StatInitiative]; ok {
		c.Initiative = []int{v}
	}
	var rolls []encounter.Roll
	if v, ok := encounter.Given(c); ok {
		c.Initiative = []int{v}
		rolls = []encounter.Roll{encounter.GivenRoll(c, "initiative", v, givenIs)}
	}
	setRes(c, ResReserved, c.Stats[StatReserved])
	if ok {
		p.store(c, s)
		c.Defeated = c.Defeated || s.Dead || s.Maimed
		c.Skipping = c.Skipping || s.KnockedOut > 0
	}
	return rolls, nil
}

// slots counts the Action Slots c gains as its Active Phase begins.
func (p Policy) slots(c *encounter.Combatant, s State) (SlotsResult, error) {
	in := SlotsInput{Agility: c.Stats[StatAgility], Shock: s.Shock > 0}
	for _, src := range []struct {
		stat string
		to   *[]int
	}{{StatAlacrity, &in.Alacrity}, {StatBonus, &in.Bonus}, {StatDilation, &in.Dilation}} {
		if v, ok := c.Stats[src.stat]; ok {
			*src.to = []int{v}
		}
	}
	return ActionSlots(in, p.cfg)
}

// StartTurn begins c's Active Phase: "The base number of Action Slots a
// Character gains when their Active Phase begins is (5 +/- Agility)", one
// only in Shock, and Momentum carried from the last one.
func (p Policy) StartTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	s, tracked, err := p.load(c)
	if err != nil {
		return []encounter.Line{encounter.Linef(c, "%s's state cannot be read: %v.", c.Name, err)}
	}
	var lines []encounter.Line
	if tracked && s.Dead {
		return []encounter.Line{encounter.Linef(c, "%s is dead: it gains no Action Slots.", c.Name)}
	}
	res, err := p.slots(c, s)
	if err != nil {
		lines = append(lines, encounter.Linef(c, "%s's Action Slots cannot be counted (%v): it gains none.", c.Name, err))
	}
	setRes(c, ResSlots, res.Slots)
	setRes(c, ResReserved, 0) // the Reserve Phase is over
	again := ""
	if c.Delayed {
		again = " (delayed)"
	}
	if err == nil {
		lines = append(lines, encounter.Linef(c, "%s's Active Phase%s: %s.", c.Name, again, describeSlots(res, c.Stats[StatAgility])))
	}
	owed := c.Resources[ResFallSlots]
	if c.Delayed {
		owed = c.Resources[ResFallPaid] // the phase begins again: so does the fall
	}
	if owed > 0 {
		// "Falling farther than the Character has Action Slots for does
		// not generate Action Debt": what it lacks is not owed further.
		n := min(owed, res.Slots)
		spend(c, Active, n)
		delete(c.Resources, ResFallSlots)
		setRes(c, ResFallPaid, n)
		lines = append(lines, encounter.Linef(c, "%s falls: the fall consumes %s.", c.Name, plural(n, "Action Slot")))
	}
	if c.Resources[ResMomentum] > 0 {
		lines = append(lines, encounter.Linef(c, "%s begins its Active Phase with Momentum.", c.Name))
	}
	if tracked {
		if s.Vulnerable {
			lines = append(lines, encounter.Linef(c, "%s is Vulnerable (damage %d, hp %d): it may act as normal until healed or an Epilogue is Activated.", c.Name, s.Damage(), s.HitPoints))
		}
		if s.KnockedOut > 0 {
			// Its turn is skipped while Knocked Out; it comes here only
			// when the turn was not (the GM moved it, say).
			lines = append(lines, encounter.Linef(c, "%s is Knocked Out (%s left).", c.Name, p.rounds(s.KnockedOut)))
		}
	}
	return lines
}

// describeSlots says how the Action Slots came about: "7 Action Slots (5 +
// Agility 2)", "1 Action Slot: in Shock (7 without)".
func describeSlots(r SlotsResult, agility int) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d + Agility %d", BaseActionSlots, agility))
	for _, x := range []struct {
		n    int
		what string
	}{{r.Alacrity, "Enhanced Alacrity"}, {r.Bonus, "Bonus Action Slots"}, {r.Dilation, "Time Dilation"}} {
		if x.n != 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.what, x.n))
		}
	}
	how := strings.Join(parts, " + ")
	if r.Unshocked != r.Base+r.Alacrity+r.Bonus+r.Dilation {
		how += ", at least min_action_slots"
	}
	if r.Shock {
		return fmt.Sprintf("%s: in Shock (%d without: %s)", plural(r.Slots, "Action Slot"), r.Unshocked, how)
	}
	return fmt.Sprintf("%s (%s)", plural(r.Slots, "Action Slot"), how)
}

// EndTurn ends c's Active Phase: the Action Slots it did not spend become
// its Reserved Slots (see Config.ReserveUnspent), and Momentum carries
// into the next Active Phase when the last slot went on a Jog or on
// Momentum.
func (p Policy) EndTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	var lines []encounter.Line
	delete(c.Resources, ResFallPaid)
	left := c.Resources[ResSlots] - c.Counters[CountSlots]
	reserved := 0
	switch v, ok := c.Stats[StatReserved]; {
	case ok:
		reserved = v
	case p.cfg.ReserveUnspent:
		reserved = max(left, 0)
	}
	setRes(c, ResReserved, reserved)
	if _, ok := c.Counters[CountReserved]; ok {
		c.Counters[CountReserved] = 0 // spent from now on, in this Reserve Phase
	}
	if reserved > 0 {
		lines = append(lines, encounter.Linef(c, "%s holds %s until its next Active Phase.", c.Name, plural(reserved, "Reserved Slot")))
	}
	// "Momentum is an Active Phase Only effect": it ends here unless it
	// carries.
	carry := c.Counters[CountMomentumNext] > 0
	switch {
	case carry && left > 0:
		lines = append(lines, encounter.Linef(c, "%s keeps no Momentum: %s left unspent, so the last one did not go on Jog or Momentum.", c.Name, plural(left, "Action Slot")))
		carry = false
	case carry:
		lines = append(lines, encounter.Linef(c, "%s spent its last Action Slot on Jog or Momentum: it begins its next Active Phase with Momentum.", c.Name))
	}
	setRes(c, ResMomentum, b2i(carry))
	return lines
}

// EndRound lets one Full Round pass for everyone: Shock, Knocked Out and
// the time to reverse a Maim run down, Holy and Spite damage fade. The
// Knocked Out sit out their next Active Phase; one whose Maim was reversed
// returns to combat once its Shock has ended.
func (p Policy) EndRound(e *encounter.Encounter) []encounter.Line {
	var lines []encounter.Line
	for i := range e.Combatants {
		c := &e.Combatants[i]
		s, ok, err := p.load(c)
		if err != nil {
			lines = append(lines, encounter.Linef(c, "%s's state cannot be read: %v.", c.Name, err))
			continue
		}
		if !ok || s.Dead {
			continue
		}
		res, err := Pass(s, p.cfg.FullRound(), p.cfg)
		if err != nil {
			lines = append(lines, encounter.Linef(c, "%s: %v.", c.Name, err))
			continue
		}
		p.store(c, res.State)
		s = res.State
		if res.WokeUp {
			lines = append(lines, encounter.Linef(c, "%s is no longer Knocked Out.", c.Name))
		}
		if res.ShockEnded {
			lines = append(lines, encounter.Linef(c, "%s's Shock ended.", c.Name))
		}
		if res.MaimFixed {
			lines = append(lines, encounter.Linef(c, "%s's Maim can no longer be reversed: the 10 Hours have passed.", c.Name))
		}
		if n := res.Faded(); n > 0 {
			lines = append(lines, encounter.Linef(c, "%s: %d Holy and %d Spite damage faded (damage %d).", c.Name, res.FadedHoly, res.FadedSpite, s.Damage()))
		}
		if res.VulnerableEnded {
			lines = append(lines, encounter.Linef(c, "%s is no longer Vulnerable.", c.Name))
		}
		if s.KnockedOut > 0 {
			c.Skipping = true
			lines = append(lines, encounter.Linef(c, "%s is Knocked Out (%s left): its next Active Phase is skipped.", c.Name, p.rounds(s.KnockedOut)))
		}
		if res.ShockEnded && c.Defeated && !s.Maimed {
			c.Defeated = false
			lines = append(lines, encounter.Linef(c, "%s returns to combat: its Maim was reversed and its Shock removed.", c.Name))
		}
	}
	return lines
}

// Budget is what c may still spend: in its Active Phase (its turn) its
// Action Slots, else its Reserved Slots.
func (p Policy) Budget(e *encounter.Encounter, c *encounter.Combatant) string {
	if !e.Begun || c.Defeated {
		return ""
	}
	phase, left := p.phase(e, c)
	var s string
	if phase == Active {
		s = plural(max(left, 0), "Action Slot") + " left"
		if left < 0 {
			s += fmt.Sprintf(" (%d spent beyond them)", -left)
		}
		if c.Resources[ResMomentum] > 0 {
			s += ", Momentum"
		}
	} else {
		s = plural(max(left, 0), "Reserved Slot") + " left"
	}
	if c.Resources[ResKnockedOutSeconds] > 0 {
		s = "Knocked Out; " + s
	}
	return s
}

// Down says that a Knocked Out combatant is down: "They remain Knocked
// Out for 3 Full Rounds" outlasts a fight that ends first.
// (encounter.Downer)
func (p Policy) Down(e *encounter.Encounter, c *encounter.Combatant) string {
	if left := seconds(c.Resources[ResKnockedOutSeconds]); left > 0 {
		return "Knocked Out for " + p.rounds(left)
	}
	return ""
}

// phase returns the phase c is in and the slots it has left in it: its
// Active Phase while it is its turn, else its Reserve Phase.
func (p Policy) phase(e *encounter.Encounter, c *encounter.Combatant) (Phase, int) {
	if cur := e.Current(); cur != nil && cur.ID == c.ID {
		return Active, c.Resources[ResSlots] - c.Counters[CountSlots]
	}
	return Reserve, c.Resources[ResReserved] - c.Counters[CountReserved]
}

// spend counts n slots spent by c in phase.
func spend(c *encounter.Combatant, phase Phase, n int) {
	if n == 0 {
		return
	}
	if c.Counters == nil {
		c.Counters = map[string]int{}
	}
	if phase == Active {
		c.Counters[CountSlots] += n
	} else {
		c.Counters[CountReserved] += n
	}
}

// setRes sets a resource, creating the map if need be.
func setRes(c *encounter.Combatant, k string, v int) {
	if c.Resources == nil {
		c.Resources = map[string]int{}
	}
	c.Resources[k] = v
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
