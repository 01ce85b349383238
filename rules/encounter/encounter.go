package encounter

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on what a command may put into an encounter, so that one stays
// small enough to load and save per command and to show in a reply.
const (
	MaxCombatants = 100           // combatants in the fight at once
	MaxNameLen    = 64            // characters (runes) of a combatant's or condition's name
	MaxKeyLen     = 32            // characters of a stat's, resource's or counter's name
	MaxKeys       = 32            // entries of each of a combatant's maps
	MaxConditions = 20            // conditions on one combatant
	MaxRounds     = 10_000        // rounds a condition may last
	MaxAmount     = 1_000_000     // damage or healing in one command
	MaxValue      = 1_000_000_000 // magnitude of a stat, resource, maximum or counter given to Add
)

// Encounter is one fight. Storage assigns it an ID; it has none itself.
type Encounter struct {
	// System names the rule system whose Policy runs the fight; "" is the
	// generic one.
	System string `json:"system"`
	// Round is 0 before Begin and counts from 1 after.
	Round int `json:"round"`
	// Turn is the index in Combatants of the combatant whose turn it is,
	// once begun; 0 before.
	Turn int `json:"turn"`
	// Begun and Ended mark the fight's start and end.
	Begun bool `json:"begun"`
	Ended bool `json:"ended"`
	// Combatants are those in the fight, in turn order.
	Combatants []Combatant `json:"combatants"`
	// Removed are those who left the fight, kept so that events and
	// conditions they caused can still name them. They take no turns.
	Removed []Combatant `json:"removed"`
	// LastID is the last combatant ID given out; IDs count from 1 and are
	// never reused, so 0 means "no combatant".
	LastID int `json:"last_id"`
	// Reached is the furthest turn the fight had reached when Prev moved
	// the turn back, zero when the current turn is the furthest. Turns up
	// to it are replayed without running their hooks again.
	Reached Mark `json:"reached"`
	// Health is what the players see of the health of the combatants no
	// player controls (see Health); "" is exact.
	Health Health `json:"health,omitempty"`
	// Moved is who last moved the turn to the current one, and when: see
	// Unseen. The commands set it, with their clock, as a change moves the
	// turn; zero before the turn first moves.
	Moved Moved `json:"moved,omitzero"`
	// Pinned is the turn the players see during the current hidden turn,
	// as it was when that turn began (see PlayersTurn); nil when no
	// hidden combatant has the turn.
	Pinned *Pin `json:"pinned,omitempty"`
}

// Pin holds the turn the players see (Shown) during one hidden turn
// (During). Without it, what changes in the hidden turn would move the
// turn they see: were the combatant whose turn they see defeated then,
// they would see the turn pass on to the next, where, without the hidden
// combatant, it would be that defeated combatant's turn still.
type Pin struct {
	During Mark `json:"during"`
	Shown  Mark `json:"shown"`
	// Told are the lines of Shown's start the players read when the
	// hidden turn began (playersStart), not told again when it starts.
	Told []string `json:"told,omitempty"`
}

// Mark is one turn of the fight: the turn of combatant ID in Round.
type Mark struct {
	Round int `json:"round"`
	ID    int `json:"id"`
}

// Combatant is one participant of the fight.
type Combatant struct {
	ID   int    `json:"id"`
	Name string `json:"name"` // unique among Combatants, ignoring case
	// Owner is the user ID of the player who controls the combatant; ""
	// for one the GM controls.
	Owner string `json:"owner"`
	NPC   bool   `json:"npc"` // controlled by the GM
	// Hidden combatants are left out of the players' view until revealed.
	// With RevealOnTurn, the first turn it starts reveals it.
	Hidden       bool `json:"hidden"`
	RevealOnTurn bool `json:"reveal_on_turn"`
	// Stats are fixed scores the policy reads ("init", "agility").
	Stats map[string]int `json:"stats"`
	// Resources are current values (hp, vigor); Max their maxima, where
	// they have one.
	Resources map[string]int `json:"resources"`
	Max       map[string]int `json:"max"`
	// Counters count things within a round (reactions used, vigor spent)
	// and go back to 0 by themselves: at the start of the bearer's turn or
	// of each round, as the policy's Resets says.
	Counters   map[string]int `json:"counters"`
	Conditions []Condition    `json:"conditions"`
	// Initiative is the combatant's place in the order as the policy keys
	// it, most significant first (the generic policy: total, init stat,
	// tie-break rolls), and InitiativeRolls the rolls that produced it.
	Initiative      []int  `json:"initiative"`
	InitiativeRolls []Roll `json:"initiative_rolls"`
	// Defeated combatants stay in the order but their turns are passed
	// over.
	Defeated bool `json:"defeated"`
	// Delayed is set by Delay until the delayed turn starts.
	Delayed bool `json:"delayed"`
	// Skipping: the combatant's next turn is passed over (Skip, or a policy
	// for a surprised character), then the flag clears.
	Skipping bool `json:"skipping"`
	// Health is what the players see of its health, "" for what the
	// fight says (see Encounter.HealthOf).
	Health Health `json:"health,omitempty"`
}

// New returns an encounter of the given system, not begun.
func New(system string) *Encounter { return &Encounter{System: system} }

// Clone returns a deep copy of e.
func (e *Encounter) Clone() *Encounter {
	c := *e
	c.Combatants = cloneCombatants(e.Combatants)
	c.Removed = cloneCombatants(e.Removed)
	if e.Pinned != nil {
		pin := *e.Pinned
		pin.Told = slices.Clone(e.Pinned.Told)
		c.Pinned = &pin
	}
	return &c
}

func cloneCombatants(cs []Combatant) []Combatant {
	if cs == nil {
		return nil
	}
	out := make([]Combatant, len(cs))
	for i := range cs {
		out[i] = cs[i].Clone()
	}
	return out
}

// Clone returns a deep copy of c.
func (c Combatant) Clone() Combatant {
	c.Stats = maps.Clone(c.Stats)
	c.Resources = maps.Clone(c.Resources)
	c.Max = maps.Clone(c.Max)
	c.Counters = maps.Clone(c.Counters)
	c.Conditions = slices.Clone(c.Conditions)
	c.Initiative = slices.Clone(c.Initiative)
	if c.InitiativeRolls != nil {
		rolls := make([]Roll, len(c.InitiativeRolls))
		for i, r := range c.InitiativeRolls {
			r.Faces = slices.Clone(r.Faces)
			rolls[i] = r
		}
		c.InitiativeRolls = rolls
	}
	return c
}

// Snapshot returns e as JSON, for storage and undo. Restore reads it back
// to an encounter deeply equal to e.
func (e *Encounter) Snapshot() ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("snapshot encounter: %w", err)
	}
	return b, nil
}

// Restore reads an encounter from a Snapshot and checks it with Validate.
func Restore(data []byte) (*Encounter, error) {
	var e Encounter
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("restore encounter: %w", err)
	}
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("restore encounter: %w", err)
	}
	return &e, nil
}

// Validate checks the invariants every operation keeps:
//
//   - IDs are unique across Combatants and Removed, from 1 to LastID;
//   - names are valid and unique among Combatants, ignoring case;
//   - before Begin, Round and Turn are 0; once begun, Round is at least 1
//     and, with anyone in the fight, 0 <= Turn < len(Combatants);
//   - Reached, when set, is a turn of a combatant in the fight after the
//     current one;
//   - every timed condition is anchored on a combatant in the fight, and
//     its source, if any, is or was in the fight.
func (e *Encounter) Validate() error {
	if len(e.Combatants) > MaxCombatants {
		return fmt.Errorf("%d combatants: too many", len(e.Combatants))
	}
	if err := checkHealth(e.Health); err != nil {
		return err
	}
	ids := map[int]bool{}
	names := map[string]bool{}
	for i := range e.Combatants {
		c := &e.Combatants[i]
		if err := checkName("combatant", c.Name); err != nil {
			return fmt.Errorf("combatant %d: %w", c.ID, err)
		}
		if err := checkHealth(c.Health); err != nil {
			return fmt.Errorf("combatant %d: %w", c.ID, err)
		}
		key := strings.ToLower(c.Name)
		if names[key] {
			return fmt.Errorf("two combatants are named %s", c.Name)
		}
		names[key] = true
	}
	for _, cs := range [][]Combatant{e.Combatants, e.Removed} {
		for i := range cs {
			id := cs[i].ID
			if id < 1 || id > e.LastID {
				return fmt.Errorf("combatant %s has ID %d, outside 1..%d", cs[i].Name, id, e.LastID)
			}
			if ids[id] {
				return fmt.Errorf("two combatants have ID %d", id)
			}
			ids[id] = true
		}
	}
	switch {
	case !e.Begun && (e.Round != 0 || e.Turn != 0 || e.Reached != Mark{}):
		return fmt.Errorf("not begun but round %d, turn %d, reached %v", e.Round, e.Turn, e.Reached)
	case e.Begun && e.Round < 1:
		return fmt.Errorf("begun in round %d", e.Round)
	case e.Begun && len(e.Combatants) > 0 && (e.Turn < 0 || e.Turn >= len(e.Combatants)):
		return fmt.Errorf("turn %d out of range 0..%d", e.Turn, len(e.Combatants)-1)
	case e.Begun && len(e.Combatants) == 0 && !e.Ended:
		return fmt.Errorf("a fight in progress with no one in it")
	}
	if e.Reached != (Mark{}) {
		r := e.index(e.Reached.ID)
		if r < 0 || e.Reached.Round < e.Round || (e.Reached.Round == e.Round && r <= e.Turn) {
			return fmt.Errorf("reached %v is not a turn after the current one (round %d, turn %d)", e.Reached, e.Round, e.Turn)
		}
	}
	for i := range e.Combatants {
		c := &e.Combatants[i]
		for _, cd := range c.Conditions {
			if err := cd.check(); err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
			if cd.Rounds > 0 && e.index(cd.AnchorID) < 0 {
				return fmt.Errorf("%s: %s is timed on combatant %d, who is not in the fight", c.Name, cd.Name, cd.AnchorID)
			}
			if cd.Source != 0 && !ids[cd.Source] {
				return fmt.Errorf("%s: %s has unknown source %d", c.Name, cd.Name, cd.Source)
			}
		}
	}
	return nil
}

// checkName reports what is wrong with the name of a combatant or a
// condition (what).
func checkName(what, name string) error {
	switch {
	case name == "":
		return invalidf("give the %s a name", what)
	case strings.TrimSpace(name) != name:
		return invalidf("the name %q has spaces around it", name)
	case !utf8.ValidString(name):
		return invalidf("the name %q is not valid text", name)
	case utf8.RuneCountInString(name) > MaxNameLen:
		return invalidf("the name %s is too long (at most %d characters)", name, MaxNameLen)
	case strings.ContainsFunc(name, unicode.IsControl):
		return invalidf("the name %q has a control character", name)
	}
	return nil
}

// checkMap reports what is wrong with one of a combatant's maps, for Add.
func checkMap(what string, m map[string]int) error {
	if len(m) > MaxKeys {
		return invalidf("too many %s (at most %d)", what, MaxKeys)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		switch {
		case k == "" || strings.TrimSpace(k) != k || strings.ContainsFunc(k, unicode.IsSpace) || strings.ContainsFunc(k, unicode.IsControl):
			return invalidf("%s need names without spaces, not %q", what, k)
		case utf8.RuneCountInString(k) > MaxKeyLen:
			return invalidf("the name %s is too long (at most %d characters)", k, MaxKeyLen)
		case v < -MaxValue || v > MaxValue:
			return invalidf("%s %d is out of range (at most ±%d)", k, v, MaxValue)
		}
	}
	return nil
}

// index returns the index in Combatants of the combatant with the given
// ID, or -1.
func (e *Encounter) index(id int) int {
	for i := range e.Combatants {
		if e.Combatants[i].ID == id {
			return i
		}
	}
	return -1
}

// byID returns the combatant with the given ID, in the fight or removed,
// or nil.
func (e *Encounter) byID(id int) *Combatant {
	if i := e.index(id); i >= 0 {
		return &e.Combatants[i]
	}
	for i := range e.Removed {
		if e.Removed[i].ID == id {
			return &e.Removed[i]
		}
	}
	return nil
}

// nameOf returns the name of the combatant with the given ID, in the
// fight or removed.
func (e *Encounter) nameOf(id int) string {
	if c := e.byID(id); c != nil {
		return c.Name
	}
	return fmt.Sprintf("combatant %d", id)
}

// Find returns the combatant in the fight with the given name, ignoring
// case and surrounding spaces. The pointer is into e.Combatants: it is
// good until the next operation.
func (e *Encounter) Find(name string) (*Combatant, error) {
	i, err := e.find(name)
	if err != nil {
		return nil, err
	}
	return &e.Combatants[i], nil
}

func (e *Encounter) find(name string) (int, error) {
	name = strings.TrimSpace(name)
	for i := range e.Combatants {
		if strings.EqualFold(e.Combatants[i].Name, name) {
			return i, nil
		}
	}
	if name == "" {
		return -1, &Error{Kind: ErrNotFound, Msg: "name a combatant: see /init list"}
	}
	return -1, &Error{Kind: ErrNotFound, Msg: fmt.Sprintf("there is no combatant named %s: see /init list", name)}
}

// Current returns the combatant whose turn it is, or nil before Begin and
// after End. The pointer is good until the next operation.
func (e *Encounter) Current() *Combatant {
	if !e.Begun || e.Ended || e.Turn < 0 || e.Turn >= len(e.Combatants) {
		return nil
	}
	return &e.Combatants[e.Turn]
}

// PlayersTurn returns the combatant whose turn the players see, and its
// round: the current one, or, while a hidden combatant has the turn, the
// first one after it that the players see and that is not defeated (in
// the next round past the end of the order). To the players a hidden
// turn is part of the turn that follows it, so that the tracker, the log
// and the buttons read as if no hidden combatant were in the fight. nil
// before the fight begins, after it ends, and when no one the players see
// can act. Once a hidden turn has begun, the turn the players see stays
// the one it was then (Pinned), while that combatant is in the fight and
// seen, even if it is defeated meanwhile: without the hidden combatant,
// its own turn would go on.
func (e *Encounter) PlayersTurn() (*Combatant, int) {
	c := e.Current()
	if c == nil || !c.Hidden {
		return c, e.Round
	}
	if p := e.Pinned; p != nil && p.During == (Mark{Round: e.Round, ID: c.ID}) {
		if shown := e.byID(p.Shown.ID); shown != nil && !shown.Hidden {
			return shown, p.Shown.Round
		}
	}
	return e.nextShown()
}

// pin keeps in Pinned the turn the players see during the current hidden
// turn, as it is when the turn begins; nil when no hidden combatant has
// the turn.
func (e *Encounter) pin() {
	c := e.Current()
	if c == nil || !c.Hidden {
		e.Pinned = nil
		return
	}
	during := Mark{Round: e.Round, ID: c.ID}
	if e.Pinned != nil && e.Pinned.During == during {
		return
	}
	prev := e.Pinned
	e.Pinned = nil
	if shown, round := e.nextShown(); shown != nil {
		e.Pinned = &Pin{During: during, Shown: Mark{Round: round, ID: shown.ID}}
		if prev != nil && prev.Shown == e.Pinned.Shown {
			// Hidden turns one after another: the players read of the
			// turn they see at the first.
			e.Pinned.Told = prev.Told
		}
	}
}

// nextShown is the first combatant after the current one that the
// players see and that is not defeated, and its round.
func (e *Encounter) nextShown() (*Combatant, int) {
	n := len(e.Combatants)
	for k := 1; k <= n; k++ {
		next := &e.Combatants[(e.Turn+k)%n]
		if !next.Hidden && !next.Defeated {
			return next, e.Round + (e.Turn+k)/n
		}
	}
	return nil, e.Round
}

// playersMark is the turn the players see, as a Mark; zero when none.
func (e *Encounter) playersMark() Mark {
	if c, round := e.PlayersTurn(); c != nil {
		return Mark{Round: round, ID: c.ID}
	}
	return Mark{}
}

// canAct reports whether anyone in the fight can take a turn.
func (e *Encounter) canAct() bool {
	for i := range e.Combatants {
		if !e.Combatants[i].Defeated {
			return true
		}
	}
	return false
}
