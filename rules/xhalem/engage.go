package xhalem

import (
	"errors"
	"fmt"
)

// EngageStat names the score a combatant adds to its engagement roll: "As
// a machine, you must always add your Systems score to the engagement roll
// (D20)." and "Generally, you will add your Agility score to all creature
// engagement rolls".
func EngageStat(k Kind) string {
	if k == Machine {
		return "systems"
	}
	return "agility"
}

// Target is what the attacker can perceive of its target.
type Target string

// Targets.
const (
	// Visible: an ordinary target.
	Visible Target = "visible"
	// Cloaked: "When engaging a target that is cloaked, you must perform an
	// engagement roll with a detriment ... If the target is within range,
	// the target is then able to perform an evasion roll with advantage
	// (2D20)."
	Cloaked Target = "cloaked"
	// Concealed (fully): "When engaging a target that is concealed, you
	// must perform an engagement roll with disadvantage (2D20) ... the
	// target is then able to perform an evasion roll with advantage
	// (2D20)."
	Concealed Target = "concealed"
	// Partial: "any engagement you make against a partially concealed
	// target, the target has an advantage on its evasion roll. There is no
	// disadvantage for engaging a partially concealed target."
	Partial Target = "partial"
	// Revealed: a cloaked or concealed target whose position is given
	// away: "there is no disadvantage or detriment to engage you, but you
	// would still receive an advantage on all of your evasion rolls so long
	// as you are cloaked or concealed".
	Revealed Target = "revealed"
)

// TargetWords are the words of a Target; "" is visible.
var TargetWords = Words[Target]{What: "target", List: []Word[Target]{
	{[]string{"visible", ""}, Visible},
	{[]string{"cloaked"}, Cloaked},
	{[]string{"concealed"}, Concealed},
	{[]string{"partial"}, Partial},
	{[]string{"revealed"}, Revealed},
}}

// Targets lists the targets, for choices and messages.
var Targets = TargetWords.Values()

// ParseTarget reads a Target (TargetWords).
func ParseTarget(s string) (Target, error) { return TargetWords.Parse(s) }

// Stealth is whether the attacker itself is hidden.
type Stealth string

// Stealth states.
const (
	Seen Stealth = ""
	// Hidden: the attacker is cloaked or concealed and moved unnoticed:
	// "all engagement and evasion rolls have an advantage".
	Hidden Stealth = "hidden"
	// Unaware: hidden, and the target does not know the attacker is there:
	// "they are unable to roll for evasion and you have advantage on the
	// engagement roll. Your engagement score still has to beat their base
	// Evasion score."
	Unaware Stealth = "unaware"
)

// Stealths are the words of a Stealth; "", "none" and "seen" are seen.
var Stealths = Words[Stealth]{What: "stealth", List: []Word[Stealth]{
	{[]string{"none", "", "seen"}, Seen},
	{[]string{"hidden"}, Hidden},
	{[]string{"unaware"}, Unaware},
}}

// ParseStealth reads a Stealth (Stealths).
func ParseStealth(s string) (Stealth, error) { return Stealths.Parse(s) }

// Range is whether the target is within the weapon's range.
type Range string

// Ranges.
const (
	InRange Range = "in"
	// OutOfRange: for a target you can perceive, "If the target is out of
	// the range, you must roll engagement with disadvantage and the damage
	// is halved."; for a cloaked or concealed one, "If the target is not
	// within range, the engagement automatically fails and you lose your
	// turn."
	OutOfRange Range = "out"
	// Blocked: a concealed target "protected from attack by their
	// concealment": "the engagement automatically fails and you lose your
	// turn."
	Blocked Range = "blocked"
)

// Ranges are the words of a Range; "" is in range.
var Ranges = Words[Range]{What: "range", List: []Word[Range]{
	{[]string{"in", ""}, InRange},
	{[]string{"out"}, OutOfRange},
	{[]string{"blocked"}, Blocked},
}}

// ParseRange reads a Range (Ranges).
func ParseRange(s string) (Range, error) { return Ranges.Parse(s) }

// Opportunity is whether the engagement is an opportunity attack.
type Opportunity string

// Opportunities.
const (
	NoOpportunity Opportunity = ""
	// Provoked: "it allows for a single melee weapon engagement against the
	// target with advantage."
	Provoked Opportunity = "provoked"
	// Forced: "If you are moved against your will into and out of a
	// combatant's reach, you will provoke an opportunity attack but with
	// disadvantage."
	Forced Opportunity = "forced"
)

// Opportunities are the words of an Opportunity; "" and "none" are none.
var Opportunities = Words[Opportunity]{What: "opportunity", List: []Word[Opportunity]{
	{[]string{"none", ""}, NoOpportunity},
	{[]string{"provoked"}, Provoked},
	{[]string{"forced"}, Forced},
}}

// ParseOpportunity reads an Opportunity (Opportunities).
func ParseOpportunity(s string) (Opportunity, error) { return Opportunities.Parse(s) }

// Water is whether the engagement is underwater.
type Water string

// Waters.
const (
	Dry Water = ""
	// Underwater: "All underwater engagements have a disadvantage".
	Underwater Water = "underwater"
	// Adapted: underwater, but "a creature with the ability to breathe
	// underwater or a mech with programming that allows specifically for
	// such engagements": no disadvantage.
	Adapted Water = "adapted"
)

// Waters are the words of the underwater: option; "", "no" and "dry"
// are dry.
var Waters = Words[Water]{What: "underwater", List: []Word[Water]{
	{[]string{"no", "", "dry"}, Dry},
	{[]string{"yes", "underwater"}, Underwater},
	{[]string{"adapted"}, Adapted},
}}

// ParseWater reads a Water (Waters).
func ParseWater(s string) (Water, error) { return Waters.Parse(s) }

// EngageInput is one engagement (attack) against one target.
type EngageInput struct {
	Kind  Kind
	Score int // Systems (machine) or Agility (creature): see EngageStat
	Bonus int // any other bonuses and penalties
	// Evasion is what the target adds to its 1D20 evasion roll; against an
	// unaware target, its base Evasion score, which is not rolled.
	Evasion int
	// Mode and TargetMode are the Architect's own calls for the engagement
	// and the evasion roll, on top of what the situation below grants.
	Mode, TargetMode Mode
	Target           Target
	Stealth          Stealth
	Range            Range
	// Position and Allies place the attacker and its allies in melee
	// around the target, for flanking (see Flanks); no Position, no
	// flanking.
	Position    Position
	Allies      []Position
	Assisted    bool // an ally took the Assist action for this engagement
	Opportunity Opportunity
	Water       Water
}

// Source is one reason a roll has advantage, disadvantage or detriment.
type Source struct {
	Mode Mode   `json:"mode"`
	Why  string `json:"why"`
}

// EngageResult is the outcome of an engagement.
type EngageResult struct {
	Mode       Mode     `json:"mode"`        // the engagement roll's mode, all sources combined
	TargetMode Mode     `json:"target_mode"` // the evasion roll's
	Sources    []Source `json:"sources"`     // why, for the engagement roll
	TargetWhy  []Source `json:"target_sources"`
	Engagement Roll     `json:"engagement"`
	Evasion    *Roll    `json:"evasion,omitempty"` // nil when the target does not roll
	EvasionTo  int      `json:"evasion_total"`     // what the engagement had to beat
	Hit        bool     `json:"hit"`
	Compared   bool     `json:"-"`                   // the totals were compared, so Margin means something
	Margin     int      `json:"margin"`              // engagement total minus evasion total
	Automatic  string   `json:"automatic,omitempty"` // why the outcome did not depend on the totals
	HalfDamage bool     `json:"half_damage"`         // a hit out of range: "the damage is halved"
	GivesAway  bool     `json:"gives_away_position"` // "Once you engage while undetected, you immediately give away your position"
	Flanking   bool     `json:"flanking"`
}

// Automatic outcomes.
const (
	AutoNatural1   = "natural 1"
	AutoNatural20  = "natural 20"
	AutoOutOfRange = "out of range"
	AutoBlocked    = "blocked by concealment"
	AutoHelpless   = "helpless target"
)

func (in EngageInput) check() error {
	if in.Kind != Machine && in.Kind != Creature {
		return fmt.Errorf("kind %q: use machine or creature", in.Kind)
	}
	if in.Range == Blocked && in.Target != Concealed && in.Target != Partial {
		return errors.New("range blocked is for a concealed target protected by its concealment")
	}
	if in.Position == "" && len(in.Allies) > 0 {
		return errors.New("allies need your own position around the target to flank")
	}
	return nil
}

// hidden reports whether the target is cloaked or concealed and unseen.
func (t Target) hidden() bool { return t == Cloaked || t == Concealed }

// sources lists the modes the situation grants the engagement roll and the
// evasion roll.
func (in EngageInput) sources() (attack, evade []Source, flanking bool) {
	add := func(list *[]Source, m Mode, why string) {
		if m != Normal {
			*list = append(*list, Source{m, why})
		}
	}
	add(&attack, in.Mode, "Architect's call")
	add(&evade, in.TargetMode, "Architect's call")
	switch in.Target {
	case Cloaked:
		add(&attack, Detriment, "cloaked target")
		add(&evade, Advantage, "cloaked target")
	case Concealed:
		add(&attack, Disadvantage, "concealed target")
		add(&evade, Advantage, "concealed target")
	case Partial:
		add(&evade, Advantage, "partially concealed target")
	case Revealed:
		add(&evade, Advantage, "target still cloaked or concealed")
	}
	switch in.Stealth {
	case Hidden:
		add(&attack, Advantage, "you are hidden")
	case Unaware:
		add(&attack, Advantage, "target unaware of you")
	}
	if in.Position != "" && Flanks(in.Position, in.Allies) {
		flanking = true
		add(&attack, Advantage, "flanking")
	}
	if in.Assisted {
		add(&attack, Advantage, "assist")
	}
	switch in.Opportunity {
	case Provoked:
		add(&attack, Advantage, "opportunity")
	case Forced:
		add(&attack, Disadvantage, "forced opportunity")
	}
	if in.Range == OutOfRange && !in.Target.hidden() {
		add(&attack, Disadvantage, "out of range")
	}
	if in.Water == Underwater {
		add(&attack, Disadvantage, "underwater")
	}
	return attack, evade, flanking
}

func modes(list []Source) []Mode {
	out := make([]Mode, len(list))
	for i, s := range list {
		out[i] = s.Mode
	}
	return out
}

// Engage resolves an engagement: "If the final score of your engagement
// roll, including the bonuses and penalties, is greater than the target's
// final score of their evasion roll (plus their bonuses and penalties),
// then you successfully hit the target. A tie always goes to the
// defender." The attacker's dice are rolled first, then the target's.
func Engage(in EngageInput, cfg Config, r ExprRoller) (EngageResult, error) {
	if err := in.check(); err != nil {
		return EngageResult{}, err
	}
	attack, evade, flanking := in.sources()
	out := EngageResult{Sources: attack, TargetWhy: evade, Flanking: flanking, GivesAway: in.Stealth != Seen}
	var err error
	if out.Mode, err = Combine(cfg.Stacking, modes(attack)...); err != nil {
		return EngageResult{}, err
	}
	if out.TargetMode, err = Combine(cfg.Stacking, modes(evade)...); err != nil {
		return EngageResult{}, err
	}
	if out.Engagement, err = d20(r, out.Mode, in.Score+in.Bonus); err != nil {
		return EngageResult{}, fmt.Errorf("engagement: %w", err)
	}
	// The roll is made first; then "The Architect must then state if the
	// target is within range".
	switch {
	case in.Range == Blocked:
		out.Automatic = AutoBlocked
		return out, nil
	case in.Range == OutOfRange && in.Target.hidden():
		out.Automatic = AutoOutOfRange
		return out, nil
	}
	if err := out.resolve(in.Kind, in.Stealth == Unaware, in.Evasion, r); err != nil {
		return EngageResult{}, err
	}
	out.HalfDamage = out.Hit && in.Range == OutOfRange
	return out, nil
}

// resolve settles an engagement roll already made against the target's
// evasion: the creature's natural 1 and 20 first, then the evasion roll
// (none against an unaware target) and the comparison.
func (out *EngageResult) resolve(kind Kind, unaware bool, evasion int, r ExprRoller) error {
	// "Rolling a 1 with a D20 when attempting to engage as a creature is
	// considered an automatic failure regardless of the penalties and
	// bonuses that may be added on to it. Rolling a 20 with a D20 is an
	// automatic success during an engagement. ... Added effects and
	// automatic outcomes do not apply to machines." The outcome is settled,
	// so the target does not roll.
	if kind == Creature {
		switch out.Engagement.Natural {
		case 1:
			out.Automatic = AutoNatural1
			return nil
		case 20:
			out.Automatic, out.Hit = AutoNatural20, true
			return nil
		}
	}
	out.EvasionTo = evasion
	if !unaware {
		ev, err := d20(r, out.TargetMode, evasion)
		if err != nil {
			return fmt.Errorf("evasion: %w", err)
		}
		out.Evasion, out.EvasionTo = &ev, ev.Total
	}
	out.Compared = true
	out.Margin = out.Engagement.Total - out.EvasionTo
	out.Hit = out.Margin > 0
	return nil
}
