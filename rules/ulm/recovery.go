package ulm

import (
	"fmt"
	"time"
)

// Healing is Hit Points restored, or a Barrier granted, to a Character or
// Unit.
type Healing struct {
	Amount int
	// Special: specialized healing or an item, not "normal means": it heals
	// Holy and Spite damage and may reverse a Maim within 10 hours.
	Special bool
	// Barrier: a Barrier is granted ("granted Hit Points or a Barrier").
	Barrier bool
}

// HealResult is a Healing applied.
type HealResult struct {
	Healed int // damage taken off Injury Cards
	// Resisted is healing that found only Holy or Spite damage to heal:
	// they "can not be healed by normal means".
	Resisted int
	// VulnerableEnded: "A Vulnerable Character or Unit which is healed or
	// otherwise granted Hit Points or a Barrier will no longer be
	// considered Vulnerable."
	VulnerableEnded bool
	// MaimReversed: "Specialized healing or items may reverse the effect
	// of a Maim only if performed within 10 Hours."
	MaimReversed bool
	// MaimTooLate: specialized healing came after the 10 hours.
	MaimTooLate bool
	State       State
}

// Heal heals s. Healing takes damage off the newest Injury Card first: the
// text does not say which wound closes first, and the totals it measures
// do not depend on it.
func Heal(s State, h Healing) (HealResult, error) {
	if h.Amount < 0 {
		return HealResult{}, fmt.Errorf("healing of %d: heal 0 or more", h.Amount)
	}
	if err := s.Check(); err != nil {
		return HealResult{}, err
	}
	if s.Dead {
		return HealResult{}, fmt.Errorf("the Victim is dead: healing does not reach it")
	}
	s = s.Clone()
	res := HealResult{}
	left := h.Amount
	for i := len(s.Cards) - 1; i >= 0 && left > 0; i-- {
		c := &s.Cards[i]
		if info := damageTypes[c.Type]; info.Lasting && !h.Special {
			continue
		}
		n := min(c.Damage, left)
		c.Damage -= n
		left -= n
		res.Healed += n
	}
	if left > 0 && !h.Special {
		res.Resisted = min(left, s.lasting())
	}
	s.Cards = dropHealed(s.Cards)
	if s.Vulnerable && (res.Healed > 0 || h.Barrier) {
		s.Vulnerable = false
		res.VulnerableEnded = true
	}
	if h.Special && s.Maimed {
		if s.MaimWindow > 0 {
			s.Maimed, s.MaimWindow = false, 0
			res.MaimReversed = true
		} else {
			res.MaimTooLate = true
		}
	}
	// "A Maimed or Knocked Out Character or Unit may recover Hit Points or
	// gain Barriers, but they will remain in Shock for 1 hour": healing
	// leaves Shock alone.
	res.State = s
	return res, nil
}

func (s State) lasting() int {
	n := 0
	for _, c := range s.Cards {
		if damageTypes[c.Type].Lasting {
			n += c.Damage
		}
	}
	return n
}

func dropHealed(cards []Card) []Card {
	out := cards[:0]
	for _, c := range cards {
		if c.Damage > 0 {
			out = append(out, c)
		}
	}
	return out
}

// PassResult is what passing time did.
type PassResult struct {
	Days                  int // whole days of fading
	FadedHoly, FadedSpite int
	ShockEnded, WokeUp    bool // Shock ended; Knocked Out ended
	MaimFixed             bool // the 10 hours to reverse a Maim ran out
	VulnerableEnded       bool
	State                 State
}

// Faded is all the damage that faded.
func (r PassResult) Faded() int { return r.FadedHoly + r.FadedSpite }

// Pass lets d pass for s: Holy and Spite damage fade, Shock and Knocked
// Out run down, and the time to reverse a Maim runs out.
func Pass(s State, d time.Duration, cfg Config) (PassResult, error) {
	if d < 0 {
		return PassResult{}, fmt.Errorf("time passes forward: %v", d)
	}
	if err := s.Check(); err != nil {
		return PassResult{}, err
	}
	s = s.Clone()
	res := PassResult{}
	down := func(t *time.Duration) bool {
		was := *t > 0
		*t = max(*t-d, 0)
		return was && *t == 0
	}
	res.ShockEnded = down(&s.Shock)
	res.WokeUp = down(&s.KnockedOut)
	if s.Maimed && down(&s.MaimWindow) {
		res.MaimFixed = true
	}
	if s.lasting() == 0 {
		s.Fading = 0 // the clock of fading starts with the first lasting damage
	} else {
		s.Fading += d
		res.Days = int(s.Fading / Day)
		s.Fading %= Day
		for range res.Days {
			h, sp := fadeDay(s.Cards, cfg.FadePerCard)
			res.FadedHoly += h
			res.FadedSpite += sp
		}
		s.Cards = dropHealed(s.Cards)
		if s.lasting() == 0 {
			s.Fading = 0
		}
	}
	// Fading is not healing: it is what Holy and Spite damage do instead
	// of being healed. So a Vulnerable Victim stays Vulnerable while its
	// damage still exceeds its Hit Points, and stops once it does not.
	if s.Vulnerable && res.Faded() > 0 && !s.Over() {
		s.Vulnerable = false
		res.VulnerableEnded = true
	}
	res.State = s
	return res, nil
}

// fadeDay fades one day of Holy and Spite damage: 1 of each type, from the
// oldest card, or 1 from every card when perCard.
func fadeDay(cards []Card, perCard bool) (holy, spite int) {
	done := map[DamageType]bool{}
	for i := range cards {
		c := &cards[i]
		if !damageTypes[c.Type].Lasting || c.Damage == 0 || (!perCard && done[c.Type]) {
			continue
		}
		c.Damage -= FadePerDay
		done[c.Type] = true
		if c.Type == Holy {
			holy += FadePerDay
		} else {
			spite += FadePerDay
		}
	}
	return holy, spite
}
