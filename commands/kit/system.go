package kit

import (
	"fmt"
	"slices"

	"github.com/tablehand/tablehand/rules/encounter"
)

// System is one rule system as the rest of Tablehand sees it. Each
// commands/<name> package exports one, and the registry (commands.Systems)
// lists them; everything that enumerates systems (the system: choices of
// /system set, /character and /init start, the stat options of /init add,
// the config file's sections, the tracker's policies, /help) derives from
// that list, so a new system is a folder and a line.
type System struct {
	// Name is the system's one name: its slash command, its value in
	// system: options and on character sheets, its section of the config
	// file, and its tracker policy's name.
	Name string
	// Defaults returns the system's documented configuration, a struct
	// value: what its text leaves to the GM. The config file's [Name]
	// section is decoded over it (an unknown key is an error).
	Defaults func() any
	// Policy returns the tracker's rules for the system under cfg (a value
	// of Defaults' type). Nil for a system without fights: it is not a
	// choice of /init start and adds no stats to /init add.
	Policy func(cfg any) encounter.Policy
	// Stats are the sheet stats /init add takes as options for a
	// combatant of this system, in the order they are listed.
	Stats []Stat
	// Resources are the stats that are damage tracks: a current value
	// with its maximum (max_<name>), as /init keeps hit points.
	Resources []string
	// OrderNeeds are the stats without which the system's policy cannot
	// place a combatant in the order (arc's som). A player joins a fight
	// of a system without them under their own name, with no sheet; with
	// them, /init join asks for a sheet that names them.
	OrderNeeds []string
	// Validate reports a configuration (a value of Defaults' type) the
	// system's rules cannot work with; nil for a system whose every
	// configuration will do. It runs once, when the configuration is
	// loaded (Rules.Validate), so a handler never checks it again.
	Validate func(cfg any) error
	// Mount adds the system's slash commands, buttons and autocomplete to
	// r. It is called once, by commands.New.
	Mount func(env *Env, r *Router)
}

// Fights reports whether the system runs encounters on the tracker.
func (s System) Fights() bool { return s.Policy != nil }

// Stat is one stat /init add takes as an option. An Integer option sets
// the stat of its own name. A String option with choices sets the stat
// Into to the value Values gives its choice (xhalem's kind:machine sets
// machine to 1).
type Stat struct {
	Option
	Into   string
	Values map[string]int
}

// Rules holds the configuration of each rule system, by its name; a value
// has the type of the system's Defaults.
type Rules map[string]any

// WithDefaults returns a copy of r in which every system of systems that r
// does not configure has its documented defaults. A configured system is
// kept as it is: Validate checks it.
func (r Rules) WithDefaults(systems []System) Rules {
	out := make(Rules, len(systems))
	for k, v := range r {
		out[k] = v
	}
	for _, s := range systems {
		if _, ok := out[s.Name]; !ok {
			out[s.Name] = s.Defaults()
		}
	}
	return out
}

// Validate reports the first configuration of r, in the order of
// systems, that its system's rules cannot work with, naming the system's
// section ("[ulm]: ..."): the operator's mistake, found when the
// configuration loads rather than on a request.
func (r Rules) Validate(systems []System) error {
	for _, s := range systems {
		cfg, ok := r[s.Name]
		if !ok || s.Validate == nil {
			continue
		}
		if err := s.Validate(cfg); err != nil {
			return fmt.Errorf("[%s]: %w", s.Name, err)
		}
	}
	return nil
}

// RulesOf returns system's configuration in r as the type its package
// declares. A missing or mistyped configuration is a programming mistake
// (New fills in every system's defaults), so it panics with the name.
func RulesOf[C any](r Rules, system string) C {
	c, ok := r[system].(C)
	if !ok {
		panic(fmt.Sprintf("kit: the configuration of %s is a %T, not a %T", system, r[system], c))
	}
	return c
}

// SystemNamed returns the system called name.
func (e *Env) SystemNamed(name string) (System, bool) {
	i := slices.IndexFunc(e.Systems, func(s System) bool { return s.Name == name })
	if i < 0 {
		return System{}, false
	}
	return e.Systems[i], true
}

// SystemNames returns the names of the systems, in the registry's order.
func (e *Env) SystemNames() []string {
	names := make([]string, len(e.Systems))
	for i, s := range e.Systems {
		names[i] = s.Name
	}
	return names
}

// SystemChoices returns the systems as the choices of a system: option.
func SystemChoices(systems []System) []Choice {
	out := make([]Choice, len(systems))
	for i, s := range systems {
		out[i] = Choice{Name: s.Name, Value: s.Name}
	}
	return out
}

// Choices offers each of words as itself, in order: the choices of an
// option whose words its rules package keeps in one table, which reads
// them too.
func Choices[S ~string](words ...S) []Choice {
	out := make([]Choice, len(words))
	for i, w := range words {
		out[i] = Choice{Name: string(w), Value: string(w)}
	}
	return out
}

// IntStat is a stat option that takes a whole number, within the bounds
// of a sheet's stats.
func IntStat(name, desc string) Stat {
	return Stat{Option: Option{Type: Integer, Name: name, Description: desc, MinValue: Float(-MaxStatAbs), MaxValue: Float(MaxStatAbs)}}
}

// ExampleSystem is the system an example names when none is known yet:
// the first that fights, else the generic rules.
func (e *Env) ExampleSystem() string {
	for _, s := range e.Systems {
		if s.Fights() {
			return s.Name
		}
	}
	return encounter.GenericName
}

// Configured returns s with the configuration of its rules package,
// typed by that package's Config so the two cannot disagree: defaults
// (its DefaultConfig), for a system that fights policy (its NewPolicy;
// nil for a game without fights), and, when the Config has a
// Validate() error method, Validate.
func Configured[C any](s System, defaults func() C, policy func(C) encounter.Policy) System {
	s.Defaults = func() any { return defaults() }
	if policy != nil {
		s.Policy = func(cfg any) encounter.Policy { return policy(cfg.(C)) }
	}
	var zero C
	if _, ok := any(zero).(interface{ Validate() error }); ok {
		s.Validate = func(cfg any) error {
			c, ok := cfg.(C)
			if !ok {
				return fmt.Errorf("the configuration is a %T, not a %T", cfg, zero)
			}
			return any(c).(interface{ Validate() error }).Validate()
		}
	}
	return s
}
