package arc

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// SystemName is the name of the arc system: its policy's name, as in
// encounter.Encounter.System.
const SystemName = "arc"

// Stats the encounter policy reads from a combatant (the names /init add
// takes). Only som is required.
const (
	// StatSOM is the State of Mind, 1 to 10: "the declarations are in
	// ascending order of State of Mind".
	StatSOM = "som"
	// StatEmpathy and StatPerception break ties of SOM: "In case of tie,
	// the characters follow the ascending order of Empathy, then of
	// Perception". Left out, they count as 0. "emp" and "per" are read too,
	// as /arc order reads them.
	StatEmpathy    = "empathy"
	StatPerception = "perception"
	// StatES is the ES score that sets the actions of a turn: "the score of
	// an ES defines the number of actions a character can perform in a
	// turn" (actions_by_es).
	StatES = "es"
	// StatActions, when given, is the number of actions a turn itself, for
	// a being whose ES description says otherwise ("Without any specific
	// indication in the ES description, ..."). It wins over StatES.
	StatActions = "actions"
	// StatSurprised, when not 0, marks a character unaware when the fight
	// begins (or when it joins): "Any character involved in the actions of
	// a turn who is unaware of what is happening (i.e. surprised or
	// unconscious) will not be part of the declarations for that turn, he
	// will act only in the next turn."
	StatSurprised = "surprised"
	// StatBuild, StatLoad (kg borne, clothing included), StatClothing (kg)
	// and StatSize (-3 to 3) give the burden status, as /arc move does:
	// beyond the Overloaded limit "he cannot act, move or perform any
	// action". Read only when load is given (build is then required).
	StatBuild    = "build"
	StatLoad     = "load"
	StatClothing = "clothing"
	StatSize     = "size"
)

// ResourceHP is the damage track. The chapter of seed 001 gives none, so
// the policy keeps the hp-like track of encounter.Base: damage lowers it,
// not below 0, healing raises it up to its maximum, and at 0 the character
// is out of the fight.
const ResourceHP = "hp"

// Counters the policy reads and keeps. Like every counter they go back to
// 0 when a new round (an arc turn) begins.
const (
	// CounterActions is the actions a character has used this turn (count
	// them with /init count); the budget is what is left.
	CounterActions = "actions"
	// CounterLosesTurn, above 0, says the character failed a reaction check
	// this turn (loses_turn of /arc reaction): "A failure results in a loss
	// of the turn for the character: he will only act from the following
	// turn onwards."
	CounterLosesTurn = "loses_turn"
	// CounterFalling is set by Damage when the track reaches 0 in a fight
	// under way: the character falls when the round ends, since "Effects,
	// consequences or results that occur within a turn are considered
	// simultaneous and take place conventionally at the end of the turn."
	CounterFalling = "falling"
)

var statAliases = map[string]string{StatEmpathy: "emp", StatPerception: "per"}

// Policy is the encounter policy of seed 001. An arc turn ("Time is
// measured in turns ... One turn equals 6 seconds"), in which every
// character declares and acts in the order of declaration, is a round of
// the tracker; a character's place in it is its tracker turn. See
// docs/arc.md, "Encounters".
type Policy struct {
	encounter.Base
	cfg Config
}

// NewPolicy returns the arc policy with the campaign's config; a zero
// Config is DefaultConfig.
func NewPolicy(cfg Config) encounter.Policy {
	if cfg.IsZero() {
		cfg = DefaultConfig()
	}
	return Policy{Base: encounter.Base{Track: ResourceHP, CounterReset: encounter.ResetRound}, cfg: cfg}
}

// NoScore refuses an initiative score given at the table
// (encounter.NoScorer): arc has none. "Every participant to the action is
// asked to declare his action(s) in the turn; the declarations are in
// ascending order of State of Mind, from the character with the lowest
// score up to the highest one."
func (Policy) NoScore() string {
	return "arc has no initiative score: actions are declared in ascending order of State of Mind (som), lowest first; give som instead of initiative"
}

// Name returns "arc".
func (Policy) Name() string { return SystemName }

// Order sets the order of declaration of the first turn with
// DeclarationOrder: ascending SOM, then Empathy, then Perception, then
// d10s, ascending, rolled for those still tied in the order of the roster.
// The surprised are left out of the first turn's declarations and then
// inserted in the order that was established (more d10s if they tie), to
// sit out round 1 (Skipping); so are those beyond the Overloaded limit,
// who sit out every round. Each combatant's Initiative is [som, empathy,
// perception, d10s...], ascending.
func (p Policy) Order(e *encounter.Encounter, r dice.Roller) ([]encounter.Roll, error) {
	for i := range e.Combatants {
		if err := p.check(&e.Combatants[i]); err != nil {
			return nil, err
		}
	}
	ps := make([]Participant, len(e.Combatants))
	for i := range e.Combatants {
		c := &e.Combatants[i]
		c.Initiative, c.InitiativeRolls = nil, nil
		ps[i] = participant(c)
		ps[i].Unaware = c.Stats[StatSurprised] != 0
	}
	first, rolled, err := declare(ps, r)
	if err != nil {
		return nil, err
	}
	final := first.Declare
	if len(first.Waiting) > 0 {
		// "he will act only in the next turn": placed now, in the order the
		// first turn established, he sits out round 1.
		all := append(slices.Clone(first.Declare), first.Waiting...)
		for i := range all {
			all[i].Unaware = false
		}
		second, more, err := declare(all, r)
		if err != nil {
			return nil, err
		}
		final, rolled = second.Declare, append(rolled, more...)
	}
	arrange(e, final)
	for _, q := range first.Waiting {
		if c := find(e, q.Name); c != nil {
			c.Skipping = true
		}
	}
	for i := range e.Combatants {
		if c := &e.Combatants[i]; !c.Defeated && !p.canAct(c) {
			c.Skipping = true
		}
	}
	return tieRolls(rolled, func(name string) *encounter.Combatant { return find(e, name) })
}

// Insert places a newcomer in the established order: "New characters
// jumping into the action are inserted in the previously established
// order." It orders everyone with DeclarationOrder, giving back the d10s
// each rolled before, so that only the newcomer and those it ties with who
// have no d10 of that round roll one (the newcomer last). A surprised
// newcomer, or one beyond the Overloaded limit, sits out its first turn if
// it falls in this round.
func (p Policy) Insert(e *encounter.Encounter, c *encounter.Combatant, r dice.Roller) (int, []encounter.Roll, error) {
	if err := p.check(c); err != nil {
		return 0, nil, err
	}
	ps := make([]Participant, 0, len(e.Combatants)+1)
	for i := range e.Combatants {
		ps = append(ps, participant(&e.Combatants[i]))
	}
	c.Initiative, c.InitiativeRolls = nil, nil
	ps = append(ps, participant(c))
	o, rolled, err := declare(ps, r)
	if err != nil {
		return 0, nil, err
	}
	pos := len(e.Combatants)
	k := slices.IndexFunc(o.Declare, func(q Participant) bool { return q.Name == c.Name })
	if k+1 < len(o.Declare) {
		pos = slices.IndexFunc(e.Combatants, func(x encounter.Combatant) bool { return x.Name == o.Declare[k+1].Name })
	}
	for _, q := range o.Declare {
		if q.Name == c.Name {
			c.Initiative = keys(q)
			continue
		}
		if x := find(e, q.Name); x != nil && len(q.TieRolls) > len(ties(x)) {
			// The scores it was ordered by stay, for EndRound to see a change.
			k := keys(q)
			if len(x.Initiative) >= 3 {
				k = append(slices.Clone(x.Initiative[:3]), q.TieRolls...)
			}
			x.Initiative = k
		}
	}
	rolls, err := tieRolls(rolled, func(name string) *encounter.Combatant {
		if name == c.Name {
			return c
		}
		return find(e, name)
	})
	if err != nil {
		return 0, nil, err
	}
	if pos > e.Turn && (c.Stats[StatSurprised] != 0 || !p.canAct(c)) {
		c.Skipping = true
	}
	return pos, rolls, nil
}

// StartTurn says why a character whose turn starts cannot act (a reaction
// check failed this turn, or it bears more than the Overloaded limit), and
// that one at 0 on the track still acts until the round ends.
func (p Policy) StartTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	var lines []encounter.Line
	switch {
	case c.Counters[CounterLosesTurn] > 0:
		lines = append(lines, encounter.Linef(c, "%s failed a reaction check and loses this turn: %s acts only from the next round onwards (V.5); end the turn with /init next.", c.Name, c.Name))
	case !p.canAct(c):
		lines = append(lines, encounter.Linef(c, "%s bears more than the Overloaded limit and cannot act, move or perform any action (V.4).", c.Name))
	}
	if c.Counters[CounterFalling] > 0 {
		lines = append(lines, encounter.Linef(c, "%s is at %s 0 and falls when the round ends; until then %s still acts: effects within a turn are simultaneous (V.1).", c.Name, p.track(), c.Name))
	}
	return lines
}

// EndTurn passes over, this round, the characters still to act who failed
// a reaction check (counter loses_turn): "A failure results in a loss of
// the turn for the character: he will only act from the following turn
// onwards."
func (p Policy) EndTurn(e *encounter.Encounter, c *encounter.Combatant) []encounter.Line {
	i := slices.IndexFunc(e.Combatants, func(x encounter.Combatant) bool { return x.ID == c.ID })
	if i < 0 {
		return nil
	}
	var lines []encounter.Line
	for j := i + 1; j < len(e.Combatants); j++ {
		x := &e.Combatants[j]
		if x.Counters[CounterLosesTurn] > 0 && !x.Skipping && !x.Defeated {
			x.Skipping = true
			lines = append(lines, encounter.Linef(x, "%s failed a reaction check and loses this turn: it acts only from the next round onwards (V.5).", x.Name))
		}
	}
	return lines
}

// EndRound ends an arc turn: those who reached 0 on the track during it
// fall ("Effects, consequences or results that occur within a turn are
// considered simultaneous and take place conventionally at the end of the
// turn"), with a reminder of the reaction checks V.5 lists when the first
// of a side falls or more than half of it is down; the order is updated if
// a score that sets it changed ("maintained and updated (in case of
// changes in SOM)"); and those beyond the Overloaded limit sit out the
// next round.
func (p Policy) EndRound(e *encounter.Encounter) []encounter.Line {
	lines := p.falls(e)
	lines = append(lines, p.updateOrder(e)...)
	for i := range e.Combatants {
		c := &e.Combatants[i]
		if !c.Defeated && !c.Skipping && !p.canAct(c) {
			c.Skipping = true
			lines = append(lines, encounter.Linef(c, "%s bears more than the Overloaded limit and cannot act, move or perform any action (V.4): its next turn is passed over.", c.Name))
		}
	}
	return lines
}

// falls defeats those who reached 0 on the track this round.
func (p Policy) falls(e *encounter.Encounter) []encounter.Line {
	type side struct {
		size, before, after int
		hidden              bool // a hidden one fell this round
	}
	sides := map[bool]*side{false: {}, true: {}}
	for i := range e.Combatants {
		c := &e.Combatants[i]
		s := sides[c.NPC]
		s.size++
		if c.Defeated {
			s.before++
		}
	}
	var lines []encounter.Line
	for i := range e.Combatants {
		c := &e.Combatants[i]
		if c.Counters[CounterFalling] == 0 {
			continue
		}
		delete(c.Counters, CounterFalling)
		if c.Defeated || c.Resources[p.track()] > 0 {
			continue
		}
		c.Defeated = true
		sides[c.NPC].hidden = sides[c.NPC].hidden || c.Hidden
		lines = append(lines, encounter.Linef(c, "%s falls (%s 0): what happens within a turn takes place at its end (V.1).", c.Name, p.track()))
	}
	for _, npc := range []bool{false, true} {
		s := sides[npc]
		for i := range e.Combatants {
			if c := &e.Combatants[i]; c.NPC == npc && c.Defeated {
				s.after++
			}
		}
		who := "the players' side"
		if npc {
			who = "the GM's side"
		}
		var why string
		switch {
		case s.before == 0 && s.after > 0:
			why = fmt.Sprintf("The first of %s has fallen", who)
		case 2*s.before <= s.size && 2*s.after > s.size:
			why = fmt.Sprintf("More than half of %s is down", who)
		default:
			continue
		}
		lines = append(lines, encounter.Line{Secret: s.hidden, Text: why + ": the GM may call for reaction checks (V.5, /arc reaction); one who fails loses the turn (/init count target:<name> counter:loses_turn)."})
	}
	return lines
}

// updateOrder updates the order when the SOM, Empathy or Perception of
// someone is not what it was when the order was set.
func (p Policy) updateOrder(e *encounter.Encounter) []encounter.Line {
	changed := false
	ps := make([]Participant, len(e.Combatants))
	for i := range e.Combatants {
		c := &e.Combatants[i]
		ps[i] = participant(c)
		if k := c.Initiative; len(k) < 3 || k[0] != ps[i].SOM || k[1] != ps[i].Empathy || k[2] != ps[i].Perception {
			changed = true
		}
	}
	if !changed {
		return nil
	}
	for i := range e.Combatants {
		if err := p.check(&e.Combatants[i]); err != nil {
			return []encounter.Line{encounter.Linef(&e.Combatants[i], "The order is kept: %v.", err)}
		}
	}
	// No die can be rolled between turns: a new tie that needs a d10
	// keeps the order.
	o, err := DeclarationOrder(ps, noDice{})
	if err != nil {
		for i := range e.Combatants {
			c := &e.Combatants[i]
			c.Initiative = append(keys(ps[i])[:3], ties(c)...)
		}
		return []encounter.Line{{Text: "The scores that set the order changed, but the new order needs a tie-break d10, which cannot be rolled between turns: the order is kept; place the tied characters with /init move."}}
	}
	arrange(e, o.Declare)
	var all, seen []string
	for _, c := range e.Combatants {
		if c.Hidden {
			all = append(all, c.Name+" (hidden)")
			continue
		}
		all, seen = append(all, c.Name), append(seen, c.Name)
	}
	const head = "The order is updated for the changed scores (V.6: \"maintained and updated (in case of changes in SOM)\"): "
	l := encounter.Line{Text: head + strings.Join(all, ", ") + "."}
	if len(seen) < len(all) {
		l.Secret = true
		if len(seen) > 0 {
			l.Public = head + strings.Join(seen, ", ") + "."
		}
	}
	return []encounter.Line{l}
}

// Damage lowers the track as encounter.Base does; in a fight under way a
// character brought to 0 is not defeated at once but falls when the round
// ends (counter falling).
func (p Policy) Damage(e *encounter.Encounter, c *encounter.Combatant, amount int, kind string) (string, error) {
	was := c.Defeated
	s, err := p.Base.Damage(e, c, amount, kind)
	if err != nil {
		return "", err
	}
	if e.Begun && !was && c.Defeated {
		c.Defeated = false
		if c.Counters == nil {
			c.Counters = map[string]int{}
		}
		c.Counters[CounterFalling] = 1
		s = strings.TrimSuffix(s, ": defeated") + ": falls when the round ends (V.1: effects within a turn take place at its end)"
	}
	return s, nil
}

// Down says that a character at 0 on the track, who falls when the round
// ends, is down: when the fight ends first, it has fallen.
// (encounter.Downer)
func (p Policy) Down(e *encounter.Encounter, c *encounter.Combatant) string {
	if c.Counters[CounterFalling] > 0 {
		return fmt.Sprintf("at %s 0, falls as the round ends", p.track())
	}
	return ""
}

// Heal raises the track as encounter.Base does; above 0 a character that
// was to fall this round no longer does.
func (p Policy) Heal(e *encounter.Encounter, c *encounter.Combatant, amount int) (string, error) {
	s, err := p.Base.Heal(e, c, amount)
	if err != nil {
		return "", err
	}
	if c.Counters[CounterFalling] > 0 && c.Resources[p.track()] > 0 {
		delete(c.Counters, CounterFalling)
		s += ": no longer falls when the round ends"
	}
	return s, nil
}

// Budget says how many actions c has left this turn: those its ES score
// (or its actions stat) allows less the actions counter; none when it lost
// the turn or bears more than the Overloaded limit; "" when it has neither
// es nor actions.
func (p Policy) Budget(e *encounter.Encounter, c *encounter.Combatant) string {
	switch {
	case c.Counters[CounterLosesTurn] > 0:
		return "no actions: the turn is lost to a failed reaction check"
	case !p.canAct(c):
		return "no actions: over the Overloaded limit"
	}
	n, ok := p.actions(c)
	if !ok {
		return ""
	}
	used := c.Counters[CounterActions]
	if used <= 0 {
		return plural(n, "action")
	}
	return fmt.Sprintf("%d of %s left", max(n-used, 0), plural(n, "action"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func (p Policy) track() string {
	if p.Track == "" {
		return ResourceHP
	}
	return p.Track
}

// actions is the number of actions c may perform in a turn.
func (p Policy) actions(c *encounter.Combatant) (int, bool) {
	if n, ok := c.Stats[StatActions]; ok {
		return n, true
	}
	es, ok := c.Stats[StatES]
	if !ok {
		return 0, false
	}
	n, err := p.cfg.ActionsPerTurn(es)
	return n, err == nil
}

// load is c's burden, if c has a load stat.
func (p Policy) load(c *encounter.Combatant) (l Load, known bool, err error) {
	w, ok := c.Stats[StatLoad]
	if !ok {
		return Load{}, false, nil
	}
	b, ok := c.Stats[StatBuild]
	if !ok {
		return Load{}, false, fmt.Errorf("a load needs a build to weigh it against (LOADT = Build x 3kg)")
	}
	l, err = p.cfg.Load(LoadInput{Build: b, Size: c.Stats[StatSize], Weight: float64(w), Clothing: float64(c.Stats[StatClothing])})
	return l, err == nil, err
}

// canAct is false for one beyond the Overloaded limit: "When the character
// wears a weight heavier than this limit, he cannot act, move or perform
// any action."
func (p Policy) canAct(c *encounter.Combatant) bool {
	l, known, err := p.load(c)
	return err != nil || !known || l.CanAct
}

// check reports, as the user's mistake, stats the policy cannot use.
func (p Policy) check(c *encounter.Combatant) error {
	som, ok := c.Stats[StatSOM]
	if !ok {
		return encounter.Errorf(encounter.ErrInvalid, "%s has no som: give it som=%d..%d (State of Mind) when adding it, since \"the declarations are in ascending order of State of Mind\"", c.Name, MinSOM, MaxSOM)
	}
	if som < MinSOM || som > MaxSOM {
		return encounter.Errorf(encounter.ErrInvalid, "%s: som must be %d (Panicked) to %d (Exalted), not %d", c.Name, MinSOM, MaxSOM, som)
	}
	for _, name := range []string{StatEmpathy, StatPerception} {
		if v, _ := stat(c, name); v < -maxScore || v > maxScore {
			return encounter.Errorf(encounter.ErrInvalid, "%s: %s %d is out of range (at most ±%d)", c.Name, name, v, maxScore)
		}
	}
	if n, ok := c.Stats[StatActions]; ok && (n < 0 || n > maxScore) {
		return encounter.Errorf(encounter.ErrInvalid, "%s: actions must be 0 to %d a turn, not %d", c.Name, maxScore, n)
	}
	if es, ok := c.Stats[StatES]; ok {
		if _, err := p.cfg.ActionsPerTurn(es); err != nil {
			return encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
		}
	}
	if _, _, err := p.load(c); err != nil {
		return encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
	}
	return nil
}

func stat(c *encounter.Combatant, name string) (int, bool) {
	if v, ok := c.Stats[name]; ok {
		return v, true
	}
	if a, ok := statAliases[name]; ok {
		v, ok := c.Stats[a]
		return v, ok
	}
	return 0, false
}

// participant is c for DeclarationOrder, with the d10s it rolled before.
func participant(c *encounter.Combatant) Participant {
	emp, _ := stat(c, StatEmpathy)
	per, _ := stat(c, StatPerception)
	return Participant{Name: c.Name, SOM: c.Stats[StatSOM], Empathy: emp, Perception: per, TieRolls: ties(c), Hidden: c.Hidden}
}

// arrange puts e.Combatants in the order of declared, one participant
// each, and sets their Initiative.
func arrange(e *encounter.Encounter, declared []Participant) {
	byName := map[string]encounter.Combatant{}
	for _, c := range e.Combatants {
		byName[c.Name] = c
	}
	for i, q := range declared {
		c := byName[q.Name]
		c.Initiative = keys(q)
		e.Combatants[i] = c
	}
}

// ties are the tie-break d10s kept in c's Initiative, after its three
// scores.
func ties(c *encounter.Combatant) []int {
	if len(c.Initiative) <= 3 {
		return nil
	}
	return slices.Clone(c.Initiative[3:])
}

// keys is the Initiative of q: its scores, then its d10s.
func keys(q Participant) []int {
	return append([]int{q.SOM, q.Empathy, q.Perception}, q.TieRolls...)
}

// find returns the combatant named name, exactly.
func find(e *encounter.Encounter, name string) *encounter.Combatant {
	for i := range e.Combatants {
		if e.Combatants[i].Name == name {
			return &e.Combatants[i]
		}
	}
	return nil
}

// rolled is one d10 DeclarationOrder rolled.
type rolled struct {
	name string
	face int
}

// declare runs DeclarationOrder and lists the d10s it rolled, in the order
// rolled, with who rolled each.
func declare(ps []Participant, r dice.Roller) (Order, []rolled, error) {
	if r == nil {
		r = noDice{}
	}
	rec := &recorder{r: r}
	o, err := DeclarationOrder(ps, rec)
	if err != nil {
		return Order{}, nil, err
	}
	seq := rollSequence(ps, o.Declare)
	if len(seq) != len(rec.faces) {
		return Order{}, nil, fmt.Errorf("arc policy: %d d10s rolled but %d found in the order", len(rec.faces), len(seq))
	}
	for i := range seq {
		if seq[i].face != rec.faces[i] {
			return Order{}, nil, fmt.Errorf("arc policy: d10 %d rolled %d but the order holds %d", i+1, rec.faces[i], seq[i].face)
		}
	}
	return o, seq, nil
}

// rollSequence finds who rolled each d10 of DeclarationOrder from the
// order it returned (declared) and what it was given (in): tie groups from
// the first to declare, those the players see, then the hidden ones; in each, the characters tied and without a d10 of
// that round, in the order given; then, among those whose d10s tie, the
// next round, lowest d10 first.
func rollSequence(in, declared []Participant) []rolled {
	pos, old := map[string]int{}, map[string]int{}
	for i, q := range in {
		pos[q.Name], old[q.Name] = i, len(q.TieRolls)
	}
	var out []rolled
	var visit func(group []Participant, round int)
	visit = func(group []Participant, round int) {
		if round >= maxTieRounds {
			return
		}
		g := slices.Clone(group)
		slices.SortFunc(g, func(a, b Participant) int { return cmp.Compare(pos[a.Name], pos[b.Name]) })
		for _, q := range g {
			if len(q.TieRolls) <= round {
				return // not how DeclarationOrder leaves a tie
			}
			if old[q.Name] <= round {
				out = append(out, rolled{q.Name, q.TieRolls[round]})
			}
		}
		slices.SortStableFunc(g, func(a, b Participant) int { return cmp.Compare(a.TieRolls[round], b.TieRolls[round]) })
		for i := 0; i < len(g); {
			j := i + 1
			for j < len(g) && g[j].TieRolls[round] == g[i].TieRolls[round] {
				j++
			}
			if j-i > 1 {
				visit(g[i:j], round+1)
			}
			i = j
		}
	}
	for _, hidden := range []bool{false, true} {
		for _, g := range tieGroups(declared) {
			if g[0].Hidden == hidden {
				visit(g, 0)
			}
		}
	}
	return out
}

// tieRolls turns the d10s rolled into the rolls of the event, and adds
// each to its roller's InitiativeRolls.
func tieRolls(rs []rolled, who func(name string) *encounter.Combatant) ([]encounter.Roll, error) {
	var out []encounter.Roll
	for _, x := range rs {
		c := who(x.name)
		if c == nil {
			return nil, fmt.Errorf("arc policy: a d10 rolled by %s, who is not in the fight", x.name)
		}
		roll, err := encounter.RollExpr(face(x.face), c, "tie-break", "1d10")
		if err != nil {
			return nil, err
		}
		c.InitiativeRolls = append(c.InitiativeRolls, roll)
		out = append(out, roll)
	}
	return out, nil
}

// recorder passes rolls through, noting the faces.
type recorder struct {
	r     dice.Roller
	faces []int
}

func (rec *recorder) Roll(sides int) (int, error) {
	v, err := rec.r.Roll(sides)
	if err == nil {
		rec.faces = append(rec.faces, v)
	}
	return v, err
}

// face is a Roller that shows one face, to render a d10 already rolled.
type face int

func (f face) Roll(int) (int, error) { return int(f), nil }

var errNoDice = errors.New("no dice can be rolled here")

// noDice refuses to roll: the order is updated between turns, where no
// dice are given.
type noDice struct{}

func (noDice) Roll(int) (int, error) { return 0, errNoDice }
