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
// its Active Phase and the stat accuracy unless in.AccuracyKnown (or
// in.Accuracy is not 0); and it marks Momentum for the next Active Phase
// when the last Action Slot went on a Jog or on Momentum. in.Phase,
// in.HasMomentum and in.LastSlot are set from the encounter. d rolls the
// Accuracy Check of a Jump or a Leap. One who cannot act (see canAct) is
// refused.
func (p Policy) Move(e *encounter.Encounter, c *encounter.Combatant, in MoveInput, d Dice) (MoveResult, string, error) {
	if !e.Begun {
		return MoveResult{}, "", encounter.Errorf(encounter.ErrNotBegun, "the fight has not begun: Action Slots are gained when an Active Phase begins (/init begin)")
	}
	if err := p.canAct(c); err != nil {
		return MoveResult{}, "", err
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
	if in.Accuracy == 0 && !in.AccuracyKnown {
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
	line := fmt.Sprintf("%s: %s, %s for %s (%d left)", c.Name, res.Name, plural(res.Tiles, "Tile"), plural(res.Celerity, phase.Slot()), left-res.Celerity)
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
// Reserve Phase (and before the fight begins) they are owed, and spent
// when its next Active Phase begins: "Characters do not begin falling
// until they gain their Action Slots." res.SlotsUsed is the Action Slots
// spent now.
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
	line := fmt.Sprintf("%s fell %s", c.Name, plural(tiles, "Tile"))
	if phase, left := p.phase(e, c); e.Begun && phase == Active {
		n := min(res.SlotsUsed, max(left, 0))
		spend(c, Active, n)
		res.SlotsUsed = n
		line += fmt.Sprintf(" (%s, %d left)", plural(n, "Action Slot"), left-n)
	} else if owed := res.SlotsUsed; owed > 0 {
		res.SlotsUsed = 0
		if !s.Dead && !res.Dies {
			setRes(c, ResFallSlots, c.Resources[ResFallSlots]+owed)
			line += fmt.Sprintf(" (%s when its Active Phase begins)", plural(owed, "Action Slot"))
		}
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

// Epilogue has activator spend 1 slot of its phase to activate in.Kind on
// the Vulnerable victim with ulm.ActivateEpilogue: "a Character or Unit
// who has an Action Slot or Reserved Slot may spend 1 Slot to activate an
// Epilogue such as Maim, Knockout, or Execute". With activator nil no slot
// is counted. in.Phase and the slots come from the encounter; in.OutOfReach
// is the table's word: the encounter keeps no positions to judge Reach and
// Range by. An activator who cannot act (see canAct) is refused.
func (p Policy) Epilogue(e *encounter.Encounter, activator, victim *encounter.Combatant, in EpilogueInput) (EpilogueResult, string, error) {
	s, err := p.mustLoad(victim)
	if err != nil {
		return EpilogueResult{}, "", err
	}
	kind := in.Kind
	in.Phase, in.Slots, in.SlotsKnown = Active, 0, false
	who := "Its activator"
	if activator != nil {
		if err := p.canAct(activator); err != nil {
			return EpilogueResult{}, "", err
		}
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

// canAct refuses an action by a combatant out of the fight: the dead
// ("The Victim Dies"), the Maimed ("The Agony caused by this effect is
// disabling"), the Knocked Out, and whoever the GM marked defeated.
func (p Policy) canAct(c *encounter.Combatant) error {
	s, tracked, err := p.load(c)
	if err != nil {
		return err
	}
	switch {
	case tracked && s.Dead:
		return encounter.Errorf(encounter.ErrInvalid, "%s is dead: it acts no more", c.Name)
	case tracked && s.Maimed:
		return encounter.Errorf(encounter.ErrInvalid, "%s is Maimed: \"The Agony caused by this effect is disabling\" until proper healing and the end of its Shock", c.Name)
	case tracked && s.KnockedOut > 0:
		return encounter.Errorf(encounter.ErrInvalid, "%s is Knocked Out (%s left): it cannot act", c.Name, p.rounds(s.KnockedOut))
	case c.Defeated:
		return encounter.Errorf(encounter.ErrInvalid, "%s is defeated, out of the fight: the GM brings it back with /init defeat name:%s back:true", c.Name, c.Name)
	}
	return nil
}

// SlotsLeft returns the phase c is in and the slots it has left in it:
// its Action Slots in its Active Phase (its turn), else its Reserved
// Slots. Before the fight begins it has none.
func (p Policy) SlotsLeft(e *encounter.Encounter, c *encounter.Combatant) (Phase, int) {
	return p.phase(e, c)
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
