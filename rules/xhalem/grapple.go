package xhalem

import (
	"fmt"
)

// MightStat names the score of grappling, breaking free and the check of a
// shove: "To grapple using a machine, you must roll for engagement (D20)
// and add your Hull score. As a creature, you roll for engagement and add
// your Strength score."
func MightStat(k Kind) string {
	if k == Machine {
		return "hull"
	}
	return "strength"
}

// GrappleInput is an attempt to seize a target.
type GrappleInput struct {
	Kind  Kind
	Score int // Hull (machine) or Strength (creature): see MightStat
	Bonus int
	// Evasion is what the target adds to its evasion roll.
	Evasion          int
	Mode, TargetMode Mode
	Water            Water
	// Helpless: "A combatant can automatically be grappled if the target is
	// incapacitated or immobilized."
	Helpless bool
	// Size and TargetSize, when both known, check that "The target of your
	// grapple must be no more than one size larger than you".
	Size, TargetSize Size
}

// Grapple resolves a grapple: an engagement with Hull or Strength against
// the target's evasion roll. "If they manage to evade, the grapple fails.
// If they fail to evade, they are grappled." It is an engagement, so a
// tie goes to the defender, a creature's natural 1 and 20 decide, and
// underwater it has disadvantage.
func Grapple(in GrappleInput, cfg Config, r ExprRoller) (EngageResult, error) {
	if err := sizeLimit(cfg, "grapple", in.Size, in.TargetSize); err != nil {
		return EngageResult{}, err
	}
	if in.Helpless {
		return EngageResult{Hit: true, Automatic: AutoHelpless}, nil
	}
	return contest(in.Kind, in.Score+in.Bonus, in.Evasion, in.Mode, in.TargetMode, in.Water, cfg, r)
}

// contest is an engagement with only the Architect's modes and water: the
// core of grapple and shove.
func contest(kind Kind, bonus, evasion int, mode, targetMode Mode, water Water, cfg Config, r ExprRoller) (EngageResult, error) {
	if kind != Machine && kind != Creature {
		return EngageResult{}, fmt.Errorf("kind %q: use machine or creature", kind)
	}
	in := EngageInput{Kind: kind, Mode: mode, TargetMode: targetMode, Water: water}
	attack, evade, _ := in.sources()
	out := EngageResult{Sources: attack, TargetWhy: evade}
	var err error
	if out.Mode, err = Combine(cfg.Stacking, modes(attack)...); err != nil {
		return EngageResult{}, err
	}
	if out.TargetMode, err = Combine(cfg.Stacking, modes(evade)...); err != nil {
		return EngageResult{}, err
	}
	if out.Engagement, err = d20(r, out.Mode, bonus); err != nil {
		return EngageResult{}, fmt.Errorf("engagement: %w", err)
	}
	if err := out.resolve(kind, false, evasion, r); err != nil {
		return EngageResult{}, err
	}
	return out, nil
}

// sizeLimit checks "must be no more than one size larger than you" when
// both sizes are known.
func sizeLimit(cfg Config, what string, size, target Size) error {
	if size == "" || target == "" {
		return nil
	}
	d, err := cfg.SizeDiff(size, target)
	if err != nil {
		return err
	}
	if d > 1 {
		return fmt.Errorf("cannot %s a %s target as a %s combatant: the target must be no more than one size larger than you", what, target, size)
	}
	return nil
}

// EscapeInput is a grappled combatant's attempt to break free.
type EscapeInput struct {
	Kind  Kind
	Score int // the escaper's Hull (machine) or Strength (creature)
	Bonus int
	Mode  Mode // the Architect's call, e.g. advantage from an Assist
	// Grappler is the Hull (machine) or Strength (creature) the grappler
	// adds to its counter roll.
	Grappler int
}

// ContestResult is an opposed roll: the actor's against the opponent's.
type ContestResult struct {
	Actor    Roll `json:"actor"`
	Opponent Roll `json:"opponent"`
	Success  bool `json:"success"`
	Margin   int  `json:"margin"` // actor total minus opponent total
}

// Escape resolves breaking free of a grapple: "they can use an action to
// roll 1D20 and use their Hull (machine) or Strength (creature) score to
// break free. You must roll 1D20 and add your Hull (machine) or Strength
// (creature) score to counter their attempt. If their score is equal to or
// better than yours, they break free." The escaper rolls first.
func Escape(in EscapeInput, r ExprRoller) (ContestResult, error) {
	if in.Kind != Machine && in.Kind != Creature {
		return ContestResult{}, fmt.Errorf("kind %q: use machine or creature", in.Kind)
	}
	var out ContestResult
	var err error
	if out.Actor, err = d20(r, in.Mode, in.Score+in.Bonus); err != nil {
		return ContestResult{}, fmt.Errorf("break free: %w", err)
	}
	if out.Opponent, err = d20(r, Normal, in.Grappler); err != nil {
		return ContestResult{}, fmt.Errorf("counter: %w", err)
	}
	out.Margin = out.Actor.Total - out.Opponent.Total
	out.Success = out.Margin >= 0
	return out, nil
}

// Shove effects: "If you succeed, you either knock the target down or push
// it 5 feet away from you."
const (
	KnockDown = "knock down"
	Push      = "push"
	// PushFeet is how far a shove pushes.
	PushFeet = 5
)

// ShoveInput is an attempt to knock a target down or push it away.
type ShoveInput struct {
	Kind  Kind
	Score int // Systems or Agility, for the engagement roll
	Bonus int
	// Evasion is what the target adds to its evasion roll.
	Evasion          int
	Mode, TargetMode Mode
	Water            Water
	// Might is the shover's Hull (machine) or Strength (creature) and
	// Resist the target's, for the check after a hit.
	Might, Resist int
	// Helpless: "You succeed automatically if the target is
	// incapacitated."
	Helpless bool
	// Size and TargetSize, when both known: "The target must be no more
	// than one size larger than you".
	Size, TargetSize Size
}

// ShoveResult is the outcome of a shove.
type ShoveResult struct {
	Engagement EngageResult   `json:"engagement"`
	Check      *ContestResult `json:"check,omitempty"` // nil when the engagement missed or the target was helpless
	Success    bool           `json:"success"`
}

// Shove resolves a shove: "Roll for engagement, if you manage to overcome
// the opponents evasion roll, you make a Hull (machine) or Strength
// (creature) check. The opponent would need to do the same to see who is
// successful." The rolls: engagement, evasion, the shover's check, the
// target's check.
func Shove(in ShoveInput, cfg Config, r ExprRoller) (ShoveResult, error) {
	if err := sizeLimit(cfg, "shove", in.Size, in.TargetSize); err != nil {
		return ShoveResult{}, err
	}
	if in.Helpless {
		return ShoveResult{Engagement: EngageResult{Hit: true, Automatic: AutoHelpless}, Success: true}, nil
	}
	if cfg.CheckSides < 2 {
		return ShoveResult{}, fmt.Errorf("check_sides %d: at least 2", cfg.CheckSides)
	}
	eng, err := contest(in.Kind, in.Score+in.Bonus, in.Evasion, in.Mode, in.TargetMode, in.Water, cfg, r)
	if err != nil {
		return ShoveResult{}, err
	}
	out := ShoveResult{Engagement: eng}
	if !eng.Hit {
		return out, nil
	}
	var c ContestResult
	if c.Actor, err = rollDie(r, cfg.CheckSides, Normal, in.Might); err != nil {
		return ShoveResult{}, fmt.Errorf("shove check: %w", err)
	}
	if c.Opponent, err = rollDie(r, cfg.CheckSides, Normal, in.Resist); err != nil {
		return ShoveResult{}, fmt.Errorf("target's check: %w", err)
	}
	c.Margin = c.Actor.Total - c.Opponent.Total
	switch cfg.ShoveTie {
	case "attacker":
		c.Success = c.Margin >= 0
	case "defender":
		c.Success = c.Margin > 0
	default:
		return ShoveResult{}, fmt.Errorf("shove_tie %q: use defender or attacker", cfg.ShoveTie)
	}
	out.Check, out.Success = &c, c.Success
	return out, nil
}

// CheckInput is an ability or skill check against a number to beat: a
// scan against the CR of a concealing field ("the attacker's roll to scan
// must beat the CR of the field"), a search against a Stealth total
// ("Creatures must beat your Stealth check total"), or the checks the
// Architect asks for (moving a grappled target, controlling a mount,
// staying on one).
type CheckInput struct {
	Score int // the stat checked
	Bonus int
	Mode  Mode // e.g. advantage from an Assist
	// CR is the number to beat: the text's checks succeed when they beat
	// it, so a tie fails.
	CR int
}

// Check rolls a check: one die of Config.CheckSides plus the stat.
func Check(in CheckInput, cfg Config, r ExprRoller) (Roll, bool, error) {
	if cfg.CheckSides < 2 {
		return Roll{}, false, fmt.Errorf("check_sides %d: at least 2", cfg.CheckSides)
	}
	roll, err := rollDie(r, cfg.CheckSides, in.Mode, in.Score+in.Bonus)
	if err != nil {
		return Roll{}, false, fmt.Errorf("check: %w", err)
	}
	return roll, roll.Total > in.CR, nil
}
