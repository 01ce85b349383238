package encounter

import "maps"

// View is what a player or the GM sees of the encounter: the result of
// every /init command.
type View struct {
	Round int `json:"round"` // 0 before the fight begins
	// Turn is the name of the combatant whose turn it is; null before the
	// fight begins and after it ends. For players it is HiddenTurn when
	// that combatant is hidden.
	Turn       *string         `json:"turn"`
	Order      []string        `json:"order"` // names in turn order
	Combatants []CombatantView `json:"combatants"`
	Ended      bool            `json:"ended,omitempty"`
}

// HiddenTurn stands in the players' view for the name of a hidden
// combatant whose turn it is.
const HiddenTurn = "(hidden)"

// CombatantView is one combatant in a View. Stats, counters, initiative
// and the hidden flag are in the GM's view only.
type CombatantView struct {
	Name       string          `json:"name"`
	Owner      string          `json:"owner,omitempty"`
	NPC        bool            `json:"npc,omitempty"`
	Resources  map[string]int  `json:"resources"`
	Max        map[string]int  `json:"max,omitempty"`
	Conditions []ConditionView `json:"conditions"`
	Defeated   bool            `json:"defeated"`
	Delayed    bool            `json:"delayed,omitempty"`
	Skipping   bool            `json:"skipping,omitempty"`
	// HealthShown is what the players see of its health when not its
	// numbers ("word" or "none"; see Health), and HealthWord the word
	// they see: in a players' view, Resources and Max are then empty.
	// The GM's view has both beside the numbers.
	HealthShown Health `json:"health_shown,omitempty"`
	HealthWord  string `json:"health_word,omitempty"`
	// GM's view only:
	Hidden     *bool          `json:"hidden,omitempty"`
	Stats      map[string]int `json:"stats,omitempty"`
	Counters   map[string]int `json:"counters,omitempty"`
	Initiative []int          `json:"initiative,omitempty"`
}

// ConditionView is a condition in a View.
type ConditionView struct {
	Name string `json:"name"`
	// RoundsLeft is how many more times its anchor's turn reaches its end
	// before it ends, counting that time (see Encounter.RoundsLeft); null
	// for one that lasts until removed.
	RoundsLeft *int   `json:"rounds_left"`
	Ends       string `json:"ends"`             // "ends at the start of Goblin 2's turn, round 4"
	Source     string `json:"source,omitempty"` // who caused it
}

// View returns the encounter as the GM (forGM) or a player sees it.
// Players do not see hidden combatants (until revealed or, with
// RevealOnTurn, until their first turn starts), nor stats, counters and
// initiative; a hidden combatant who caused or times a condition is
// "someone" to them.
func (e *Encounter) View(forGM bool) View { return e.ViewTracked(forGM, TrackHP) }

// ViewTracked is View with the health words (see HealthWordOf) measured on
// track, the damage track of the fight's policy (HealthTrack).
func (e *Encounter) ViewTracked(forGM bool, track string) View {
	v := View{Round: e.Round, Ended: e.Ended, Order: []string{}, Combatants: []CombatantView{}}
	if c := e.Current(); c != nil {
		name := c.Name
		if c.Hidden && !forGM {
			// The players see the turn that follows it (PlayersTurn).
			name = HiddenTurn
			if pc, round := e.PlayersTurn(); pc != nil {
				name, v.Round = pc.Name, round
			}
		}
		v.Turn = &name
	}
	for i := range e.Combatants {
		c := &e.Combatants[i]
		if c.Hidden && !forGM {
			continue
		}
		v.Order = append(v.Order, c.Name)
		cv := CombatantView{
			Name:       c.Name,
			Owner:      c.Owner,
			NPC:        c.NPC,
			Resources:  maps.Clone(c.Resources),
			Max:        maps.Clone(c.Max),
			Conditions: []ConditionView{},
			Defeated:   c.Defeated,
			Delayed:    c.Delayed,
			Skipping:   c.Skipping,
		}
		if cv.Resources == nil {
			cv.Resources = map[string]int{}
		}
		if h := e.HealthOf(c); h != HealthExact {
			cv.HealthShown = h
			if h == HealthWord {
				cv.HealthWord = HealthWordOf(c, track)
			}
			if !forGM {
				cv.Resources, cv.Max = map[string]int{}, nil
			}
		}
		if forGM {
			hidden := c.Hidden
			cv.Hidden = &hidden
			cv.Stats = maps.Clone(c.Stats)
			cv.Counters = maps.Clone(c.Counters)
			cv.Initiative = append([]int(nil), c.Initiative...)
		}
		for _, cd := range c.Conditions {
			w := ConditionView{Name: cd.Name, Ends: cd.describe(e, forGM)}
			if n, ok := e.RoundsLeft(cd); ok {
				w.RoundsLeft = &n
			}
			if cd.Source != 0 {
				w.Source = e.nameOf(cd.Source)
				if e.secret(cd.Source) && !forGM {
					w.Source = "someone"
				}
			}
			cv.Conditions = append(cv.Conditions, w)
		}
		v.Combatants = append(v.Combatants, cv)
	}
	return v
}
