package ulm

import (
	"fmt"
	"time"
)

// Epilogue is one of the Epilogues a Vulnerable Victim may suffer.
type Epilogue string

// The Epilogues of the text.
const (
	Maim     Epilogue = "maim"
	Knockout Epilogue = "knockout"
	Execute  Epilogue = "execute"
)

// Epilogues lists the Epilogues in the order of the text.
var Epilogues = []Epilogue{Maim, Knockout, Execute}

// EpilogueCelerity: every Epilogue is "Celerity: (1|1)": "a Character or
// Unit who has an Action Slot or Reserved Slot may spend 1 Slot to
// activate an Epilogue".
var EpilogueCelerity = Celerity{1, 1}

// EpilogueText is each Epilogue's text.
var EpilogueText = map[Epilogue]string{
	Maim:     "You Break, Sever, or otherwise semi-permanently destroy one of the Victim's limbs or black out one of their eyes. The Agony caused by this effect is disabling. They will remain in shock for 1 hour.",
	Knockout: "You apply the Knocked Out status to your Victim. They remain Knocked Out for 3 Full Rounds. Shock is applied to them for 1 hour.",
	Execute:  "The Victim Dies, the description of which is narrated by the Executioner.",
}

// ParseEpilogue reads an Epilogue by name.
func ParseEpilogue(s string) (Epilogue, error) {
	for _, e := range Epilogues {
		if string(e) == s {
			return e, nil
		}
	}
	return "", fmt.Errorf("%q is not an Epilogue (maim, knockout, execute)", s)
}

// EpilogueInput is an Epilogue activated by a Character or Unit.
type EpilogueInput struct {
	Kind  Epilogue
	Phase Phase // Active spends an Action Slot, Reserve a Reserved Slot
	// Slots is what the activator has left of the phase's slots, when
	// SlotsKnown; unknown, it is taken to have one.
	Slots      int
	SlotsKnown bool
	// OutOfReach: neither "their currently equipped equipment is able to
	// Reach the Victim" nor "they have an Epilogue Effect and the Victim
	// is within Range".
	OutOfReach bool
}

// EpilogueResult is an Epilogue applied.
type EpilogueResult struct {
	Kind     Epilogue
	Celerity int   // slots spent: 0 when an Action's Execution applied it
	Phase    Phase // whose slot
	State    State
}

// ActivateEpilogue has a Character or Unit spend 1 slot to apply an
// Epilogue to the Vulnerable Victim s.
func ActivateEpilogue(s State, in EpilogueInput, cfg Config) (EpilogueResult, error) {
	cost, err := EpilogueCelerity.Cost(in.Phase)
	if err != nil {
		return EpilogueResult{}, err
	}
	if err := s.Check(); err != nil {
		return EpilogueResult{}, err
	}
	switch {
	case s.Dead:
		return EpilogueResult{}, fmt.Errorf("the Victim is already dead")
	case !s.Vulnerable:
		return EpilogueResult{}, fmt.Errorf("only a Vulnerable Victim suffers an Epilogue: its damage (%d) must exceed its Hit Points (%d)", s.Damage(), s.HitPoints)
	case in.SlotsKnown && in.Slots < cost:
		return EpilogueResult{}, fmt.Errorf("an Epilogue costs 1 %s and the activator has %d", in.Phase.Slot(), in.Slots)
	case in.OutOfReach:
		return EpilogueResult{}, fmt.Errorf("an Epilogue needs equipment able to Reach the Victim, or an Epilogue Effect with the Victim within Range")
	}
	res, err := applyEpilogue(s, in.Kind, cfg)
	if err != nil {
		return EpilogueResult{}, err
	}
	res.Celerity, res.Phase = cost, in.Phase
	return res, nil
}

// applyEpilogue applies kind to s, paid for or not.
func applyEpilogue(s State, kind Epilogue, cfg Config) (EpilogueResult, error) {
	s = s.Clone()
	switch kind {
	case Maim:
		s.Maimed = true
		s.MaimWindow = MaimWindow
		s.Shock = max(s.Shock, ShockTime)
	case Knockout:
		s.KnockedOut = max(s.KnockedOut, KnockoutRounds*cfg.FullRound())
		s.Shock = max(s.Shock, ShockTime)
	case Execute:
		s.Dead = true
	default:
		return EpilogueResult{}, fmt.Errorf("%q is not an Epilogue (maim, knockout, execute)", kind)
	}
	return EpilogueResult{Kind: kind, State: s}, nil
}

// Rounds converts a time left into Full Rounds, a part counting whole.
func Rounds(d time.Duration, cfg Config) int {
	r := cfg.FullRound()
	return int((d + r - 1) / r)
}
