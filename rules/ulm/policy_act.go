package ulm

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// What a combatant does in a fight beyond the Policy interface: a Movement
// Action, a fall, an Epilogue. Each spends the slots of the phase the
// combatant is in (its Active Phase on its turn, else its Reserve Phase)
// and keeps what the rules return. A command calls them on its own copy of
// the encounter and keeps the copy only if they succeed, as every
// encounter operation does.

// Move does a Movement Action for c with ulm.Act: it pays the Celerity of
// the phase c is in ("Celerity: (active|reserve)") from its Action Slots
// or Reserved Slots, refusing one it cannot pay; it uses c's Momentum in
// its Active Phase and the stat accuracy when in.Accuracy is 0; and it
// marks Momentum for the next Active Phase when the last Action Slot went
// on a Jog or on Momentum. in.Phase, in.HasMomentum and in.LastSlot are
// set from the encounter. d rolls the Accuracy Check of a Jump or a Leap.
func (p Policy) Move(e *encounter.Encounter, c *encounter.Combatant, in MoveInput, d Dice) (MoveResult, string, error) {
	if !e.Begun {
		return MoveResult{}, "", encounter.Errorf(encounter.ErrNotBegun, "the fight has not begun: Action Slots are gained when an Active Phase begins")
	}
	rule, ok := MoveRules[in.Move]
	if !ok {
		return MoveResult{}, "", encounter.Errorf(encounter.ErrInvalid, "%q is not a movement action (%s)", in.Move, moveList())
	}
	phase, left := p.phase(e, c)
	cost, err := rule.Celerity.Cost(phase)
	if err != nil {
		return MoveResult{}, "", encounter.Errorf(encounter.ErrInvalid, "%s is in its Reserve Phase, and %s %v", c.Name, rule.Name, err)
	}
	if in.Move == Momentum {
		cost *= max(in.Slots, 1)
	}
	if cost > left {
		return MoveResult{}, "", encounter.Errorf(encounter.ErrInvalid, "%s costs %s and %s has %d left", rule.Name, plural(cost, phase.Slot()), c.Name, max(left, 0))
	}
	in.Phase = phase
	in.HasMomentum = phase == Active && c.Resources[ResMomentum] > 0
	in.LastSlot = phase == Active && cost > 0 && cost == left
	if in.Accuracy == 0 {
		in.Accuracy = c.Stats[StatAccuracy]
	}
	res, err := Act(in, d)
	if err != nil {
		return MoveResult{}, "", userError(c, err)
	}
	spend(c, phase, res.Celerity)
	if phase == Active {
		setRes(c, ResMomentum, b2i(res.Momentum))
		if res.MomentumNext {
			if c.Counters == nil {
				c.Counters = map[string]int{}
			}
			c.Counters[CountMomentumNext] = 1
		}
	}
	line := fmt.Sprintf("%s: %s, %d Tiles for %s (%d left)", c.Name, res.Name, res.Tiles, plural(res.Celerity, phase.Slot()), left-res.Celerity)
	if k := res.Check; k != nil {
		verdict := "failure"
		if k.Success {
			verdict = "success"
		}
		line += fmt.Sprintf("; Accuracy Check %d%s = %d vs %d: %s", k.Die, plus(k.Accuracy), k.Total, k.Target, verdict)
		if res.FailDie != 0 {
			line += fmt.Sprintf(", v:4 (%d) - 1 Tiles", res.FailDie)
		}
	}
	switch {
	case res.MomentumNext:
		line += "; it begins its next Active Phase with Momentum"
	case phase == Active && res.Momentum:
		line += "; Momentum"
	}
	if len(res.Notes) > 0 {
		line += "; " + strings.Join(res.Notes, "; ")
	}
	return res, line, nil
}

// Fall resolves a fall of c with ulm.Fall: "(3v:6+T) Damage, Minimum T%
// Hit Points" on an Injury Card, rolled with d, and death when the fall
// makes it Vulnerable. In its Active Phase the Action Slots the fall
// consumes are spent, as many as c has left ("Falling farther than the
// Character has Action Slots for does not generate Action Debt"); in its
// Reserve Phase none are: "Characters do not begin falling until they gain
// their Action Slots."
func (p Policy) Fall(e *encounter.Encounter, c *encounter.Combatant, tiles int, d Dice) (FallResult, string, error) {
	s, err := p.mustLoad(c)
	if err != nil {
		return FallResult{}, "", err
	}
	in := FallInput{Tiles: tiles}
	if v, ok := c.Resources[ResSlots]; ok {
		in.Slots, in.SlotsKnown = v, true
	}
	res, err := Fall(s, in, d, p.cfg)
	if err != nil {
		return FallResult{}, "", userError(c, err)
	}
	line := fmt.Sprintf("%s fell %d Tiles", c.Name, tiles)
	if phase, left := p.phase(e, c); e.Begun && phase == Active {
		n := min(res.SlotsUsed, max(left, 0))
		spend(c, Active, n)
		line += fmt.Sprintf(" (%s, %d left)", plural(n, "Action Slot"), left-n)
	} else if res.SlotsNeeded > 0 {
		line += fmt.Sprintf(" (%s when its Active Phase begins)", plural(res.SlotsNeeded, "Action Slot"))
	}
	if !res.Damaging {
		return res, line + fmt.Sprintf(": no damage, under %d Tiles", p.cfg.FallDamageMinTiles), nil
	}
	inj := res.Injury
	line += fmt.Sprintf(": 3v:6 (%d)%s = %d, minimum %d: %d %s damage (damage %d -> %d, hp %d)",
		res.Dice, plus(res.T), res.Formula, res.Minimum, res.Damage, p.cfg.FallDamageType, inj.Before, inj.After, s.HitPoints)
	if inj.BecameVulnerable {
		line += ": Vulnerable"
	}
	return res, line + p.apply(c, s, inj.State), nil
}

// Epilogue has activator spend 1 slot of its phase to activate kind on the
// Vulnerable victim with ulm.ActivateEpilogue: "a Character or Unit who
// has an Action Slot or Reserved Slot may spend 1 Slot to activate an
// Epilogue such as Maim, Knockout, or Execute". With activator nil no slot
// is counted. Reach and Range are the table's to judge: the encounter
// keeps no positions.
func (p Policy) Epilogue(e *encounter.Encounter, activator, victim *encounter.Combatant, kind Epilogue) (EpilogueResult, string, error) {
	s, err := p.mustLoad(victim)
	if err != nil {
		return EpilogueResult{}, "", err
	}
	in := EpilogueInput{Kind: kind, Phase: Active}
	who := "Its activator"
	if activator != nil {
		who = activator.Name
		if e.Begun {
			in.Phase, in.Slots = p.phase(e, activator)
			in.SlotsKnown = true
		}
	}
	res, err := ActivateEpilogue(s, in, p.cfg)
	if err != nil {
		return EpilogueResult{}, "", userError(victim, err)
	}
	line := fmt.Sprintf("%s activates %s on %s", who, title(kind), victim.Name)
	if activator != nil {
		spend(activator, res.Phase, res.Celerity)
		line += fmt.Sprintf(" (1 %s", res.Phase.Slot())
		if in.SlotsKnown {
			line += fmt.Sprintf(", %d left", in.Slots-res.Celerity)
		}
		line += ")"
	}
	return res, line + p.apply(victim, s, res.State), nil
}

// userError makes an error of the rules a mistake of the user's, naming
// c; physical dice that do not fit stay *dice.Error, wrapped.
func userError(c *encounter.Combatant, err error) error {
	var de *dice.Error
	if errors.As(err, &de) {
		return fmt.Errorf("%s: %w", c.Name, err)
	}
	return encounter.Errorf(encounter.ErrInvalid, "%s: %v", c.Name, err)
}
