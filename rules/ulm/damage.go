package ulm

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// DamageType is the type of damage an Injury Card records: "What type of
// damage plays a role in Effect Interactions, Mitigation, and Healing."
type DamageType string

// The damage types of the text.
const (
	Contusion   DamageType = "contusion"
	Incision    DamageType = "incision"
	Puncture    DamageType = "puncture"
	Raw         DamageType = "raw"
	Fire        DamageType = "fire"
	Ice         DamageType = "ice"
	ShockDamage DamageType = "shock" // the damage type, not the Shock status
	Holy        DamageType = "holy"
	Spite       DamageType = "spite"
	// Earlier stands for damage already on the Injury Panel whose type
	// was not recorded (a total typed in by hand): it heals normally.
	Earlier DamageType = ""
)

// DamageTypes lists the damage types in the order of the text.
var DamageTypes = []DamageType{Contusion, Incision, Puncture, Raw, Fire, Ice, ShockDamage, Holy, Spite}

// TypeInfo is what the text says of one damage type.
type TypeInfo struct {
	Category string // "physical", "elemental", "divine" or "demonic"
	Trauma   string // the Injury Card it makes
	Effect   string // what it does, in the text's words
	// Lasting: it "can not be healed by normal means, and fades at the
	// rate of 1 damage per day".
	Lasting bool
}

var damageTypes = map[DamageType]TypeInfo{
	Contusion:   {"physical", "Blunt-Force Trauma", "Contusions deal heavy damage.", false},
	Incision:    {"physical", "Sharp-Force Trauma", "Incisions typically apply Bleeding Counters.", false},
	Puncture:    {"physical", "Penetration Trauma", "Punctures typically apply Hemorrhaging Counters.", false},
	Raw:         {"physical", "Raw Trauma", "Raw Damage deals ½ damage to Armor and Object Durability.", false},
	Fire:        {"elemental", "Burn Trauma", "Fire often causes Burning.", false},
	Ice:         {"elemental", "Frostbite Trauma", "Ice often causes Rigidity.", false},
	ShockDamage: {"elemental", "Shock Trauma", "Shock often causes Stun.", false},
	Holy:        {"divine", "Divine Trauma", "Divine Damage can not be healed by normal means, and fades at the rate of 1 damage per day.", true},
	Spite:       {"demonic", "Demonic Trauma", "Demonic Damage can not be healed by normal means, and fades at the rate of 1 damage per day.", true},
}

// Info returns what the text says of t; ok is false for an unknown type.
func (t DamageType) Info() (TypeInfo, bool) {
	i, ok := damageTypes[t]
	return i, ok
}

// ParseDamageType reads a damage type by name.
func ParseDamageType(s string) (DamageType, error) {
	t := DamageType(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := damageTypes[t]; !ok || t == Earlier {
		return "", fmt.Errorf("%q is not a damage type (%s)", s, typeList())
	}
	return t, nil
}

func typeList() string {
	s := make([]string, len(DamageTypes))
	for i, t := range DamageTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// Card is an Injury Card: "The information contained on the Injury Card
// includes wound information; Damage Source, Damage Type, and Total Damage."
type Card struct {
	Source string
	Type   DamageType
	Damage int
}

// Durations the text states.
const (
	// ShockTime: a Maimed Victim "will remain in shock for 1 hour";
	// Knockout: "Shock is applied to them for 1 hour."
	ShockTime = time.Hour
	// KnockoutRounds: "They remain Knocked Out for 3 Full Rounds."
	KnockoutRounds = 3
	// MaimWindow: "Specialized healing or items may reverse the effect of
	// a Maim only if performed within 10 Hours."
	MaimWindow = 10 * time.Hour
	// Day is the "per day" of fading.
	Day = 24 * time.Hour
	// FadePerDay: "fades at the rate of 1 damage per day".
	FadePerDay = 1
)

// State is a Character's or Unit's Hit Points, Injury Panel and the
// statuses of this chapter. It is a value: every function returns a new
// one and leaves its argument alone.
type State struct {
	// HitPoints is the pool: "a static value based on their total
	// Strength and Vitality".
	HitPoints int
	// Cards is the Injury Panel, oldest first.
	Cards []Card
	// Vulnerable: "If the total Damage on Injury Cards exceeds Hit Points,
	// the Character or Unit becomes Vulnerable." It is kept, not derived:
	// "A Vulnerable Character or Unit which is healed or otherwise granted
	// Hit Points or a Barrier will no longer be considered Vulnerable",
	// even while its damage still exceeds its Hit Points.
	Vulnerable bool
	Dead       bool
	// Maimed, and MaimWindow is the time left to reverse it.
	Maimed     bool
	MaimWindow time.Duration
	// Shock and KnockedOut are the time left in each.
	Shock      time.Duration
	KnockedOut time.Duration
	// Fading is the time since Holy and Spite damage last faded.
	Fading time.Duration
}

// Clone returns a copy of s that shares nothing with it.
func (s State) Clone() State {
	s.Cards = slices.Clone(s.Cards)
	return s
}

// Damage is the running total of the Injury Panel.
func (s State) Damage() int {
	n := 0
	for _, c := range s.Cards {
		n += c.Damage
	}
	return n
}

// DamageOf is the damage of type t on the panel.
func (s State) DamageOf(t DamageType) int {
	n := 0
	for _, c := range s.Cards {
		if c.Type == t {
			n += c.Damage
		}
	}
	return n
}

// Over reports whether the damage exceeds the Hit Points.
func (s State) Over() bool { return s.Damage() > s.HitPoints }

// Check reports a state the rules cannot hold.
func (s State) Check() error {
	if s.HitPoints < 1 {
		return fmt.Errorf("%d Hit Points: a Character or Unit has at least 1", s.HitPoints)
	}
	for _, c := range s.Cards {
		if c.Damage < 0 {
			return fmt.Errorf("an Injury Card of %d damage: damage is 0 or more", c.Damage)
		}
	}
	if s.Shock < 0 || s.KnockedOut < 0 || s.MaimWindow < 0 || s.Fading < 0 {
		return fmt.Errorf("a status with negative time left")
	}
	return nil
}

// Modifiers are the Resolution's "Mitigation, Amplifications, and
// Weaknesses", summed over their sources.
type Modifiers struct {
	Mitigation, Amplification, Weakness int
}

// Apply applies m to potency as cfg.ModifierMode says, never below 0.
func (m Modifiers) Apply(potency int, cfg Config) (int, error) {
	if m.Mitigation < 0 || m.Amplification < 0 || m.Weakness < 0 {
		return 0, fmt.Errorf("mitigation, amplification and weakness are 0 or more; a negative one is the other kind")
	}
	var p int
	switch cfg.ModifierMode {
	case ModifierFlat:
		p = potency - m.Mitigation + m.Amplification + m.Weakness
	case ModifierPercent:
		p = potency * (100 - m.Mitigation + m.Amplification + m.Weakness) / 100
	default:
		return 0, fmt.Errorf("modifier mode %q is not %q or %q", cfg.ModifierMode, ModifierFlat, ModifierPercent)
	}
	return max(p, 0), nil
}

// Injury is damage dealt to one Victim.
type Injury struct {
	Source  string
	Type    DamageType
	Potency int // the Total Potency of Execution
	Modifiers
	// Object: the damage is dealt to Armor or an Object's Durability,
	// which takes no Injury Card.
	Object bool
	// Execution is the Epilogue of an Action with Execution, "which causes
	// the Vulnerable Stage to be skipped, and Epilogue being applied during
	// the Actions Resolution"; "" for none.
	Execution Epilogue
}

// InjuryResult is an Injury resolved.
type InjuryResult struct {
	Potency int // before Resolution
	Damage  int // after Mitigation, Amplification and Weakness: the Card's, or the Durability lost
	Card    *Card
	// Durability is the Armor or Object Durability lost, for an Object.
	Durability int
	Before     int // damage on the panel before
	After      int // and after
	// BecameVulnerable: the Injury made the Victim Vulnerable.
	BecameVulnerable bool
	// Execution is the Epilogue the Action's Execution applied.
	Execution *EpilogueResult
	Info      TypeInfo
	State     State
}

// Injure resolves an Injury against s: Mitigation, Amplification and
// Weakness, then the Injury Card, then Vulnerable.
func Injure(s State, in Injury, cfg Config) (InjuryResult, error) {
	info, ok := damageTypes[in.Type]
	if !ok || in.Type == Earlier {
		return InjuryResult{}, fmt.Errorf("%q is not a damage type (%s)", in.Type, typeList())
	}
	if in.Potency < 0 {
		return InjuryResult{}, fmt.Errorf("potency %d: damage is 0 or more", in.Potency)
	}
	if !in.Object {
		if err := s.Check(); err != nil {
			return InjuryResult{}, err
		}
		if s.Dead {
			return InjuryResult{}, fmt.Errorf("the Victim is dead")
		}
	}
	// "during Resolution, all sources of Mitigation, Amplifications, and
	// Weaknesses are calculated and applied to the Potency of the Action.
	// After these Calculations are completed, the remaining Potency is used
	// to create and apply an Injury Card."
	dmg, err := in.Modifiers.Apply(in.Potency, cfg)
	if err != nil {
		return InjuryResult{}, err
	}
	s = s.Clone()
	res := InjuryResult{Potency: in.Potency, Damage: dmg, Info: info, Before: s.Damage()}
	if in.Object {
		// "Raw Damage deals ½ damage to Armor and Object Durability."
		res.Durability = dmg
		if in.Type == Raw {
			res.Durability = half(dmg, cfg.RawArmorRoundUp)
		}
		res.After = res.Before
		res.State = s
		return res, nil
	}
	if dmg > 0 {
		// "Each time a Character or Unit takes damage, an Injury card is
		// made." No damage left after Resolution is no damage taken.
		c := Card{Source: in.Source, Type: in.Type, Damage: dmg}
		s.Cards = append(s.Cards, c)
		res.Card = &c
	}
	res.After = s.Damage()
	// "If the total Damage on Injury Cards exceeds Hit Points, the
	// Character or Unit becomes Vulnerable."
	if s.Over() && !s.Vulnerable && res.Card != nil {
		s.Vulnerable = true
		res.BecameVulnerable = true
	}
	// An Action with Execution applies its Epilogue in its own Resolution
	// once the Victim is Vulnerable, instead of leaving it Vulnerable for
	// someone to spend a slot on.
	if in.Execution != "" && s.Vulnerable {
		e, err := applyEpilogue(s, in.Execution, cfg)
		if err != nil {
			return InjuryResult{}, err
		}
		res.Execution = &e
		s = e.State
	}
	res.State = s
	return res, nil
}

func half(n int, up bool) int {
	if up {
		return (n + 1) / 2
	}
	return n / 2
}
