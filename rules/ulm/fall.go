package ulm

import "fmt"

// Falling, as the text measures it.
const (
	// TilesPerRound: "each Full Round of falling is 100 Tiles of movement."
	TilesPerRound = 100
	// TilesPerSlot: "each 10 Tiles a Character falls consumes 1 Action Slot."
	TilesPerSlot = 10
	// MaxFallTiles: "T = Tiles Fallen, T has a maximum Value of 100."
	MaxFallTiles = 100
	// FallSource is the Damage Source on a fall's Injury Card.
	FallSource = "Falling"
)

// FallInput is one fall of a Character.
type FallInput struct {
	// Tiles fallen: "When a fall is measured, the Tile the Character
	// begins the fall from is included."
	Tiles int
	// Slots is the Action Slots the Character gains each Full Round, when
	// SlotsKnown: "Falling farther than the Character has Action Slots for
	// does not generate Action Debt."
	Slots      int
	SlotsKnown bool
}

// FallResult is a fall: the Action Slots it consumed and its damage.
type FallResult struct {
	Tiles  int // as measured
	T      int // Tiles for the damage: at most 100
	Rounds int // Full Rounds the fall lasts (a part counting whole)
	// SlotsNeeded is the Action Slots the fall consumes, SlotsUsed those
	// the Character had to give: the rest is not Action Debt.
	SlotsNeeded, SlotsUsed int
	Damaging               bool // the fall is long enough to deal damage
	Dice                   int  // the 3v:6
	Formula                int  // 3v:6 + T
	Minimum                int  // T% of the Hit Points
	Damage                 int  // the larger
	Injury                 InjuryResult
	// Dies: "If a Character Becomes Vulnerable due to damage from Falling,
	// they die."
	Dies bool
}

// Fall resolves a fall of s: the Action Slots it consumes, then "(3v:6+T)
// Damage, Minimum T% Hit Points", rolled with d, on an Injury Card.
func Fall(s State, in FallInput, d Dice, cfg Config) (FallResult, error) {
	if in.Tiles < 1 {
		return FallResult{}, fmt.Errorf("a fall of %d Tiles: a fall counts the Tile it begins from, so it is 1 Tile or more", in.Tiles)
	}
	if in.SlotsKnown && in.Slots < 0 {
		return FallResult{}, fmt.Errorf("%d Action Slots: a Character has 0 or more", in.Slots)
	}
	if err := s.Check(); err != nil {
		return FallResult{}, err
	}
	if s.Dead {
		return FallResult{}, fmt.Errorf("the Character is dead")
	}
	res := FallResult{Tiles: in.Tiles, T: min(in.Tiles, MaxFallTiles), Rounds: (in.Tiles + TilesPerRound - 1) / TilesPerRound}
	res.SlotsNeeded, res.SlotsUsed = fallSlots(in, cfg)
	res.Injury = InjuryResult{State: s.Clone(), Before: s.Damage(), After: s.Damage()}
	if in.Tiles < cfg.FallDamageMinTiles {
		return res, nil
	}
	res.Damaging = true
	r, err := d.Roll("3v:6" + plus(res.T))
	if err != nil {
		return FallResult{}, fmt.Errorf("fall damage: %w", err)
	}
	res.Formula = r.Total
	res.Dice = r.Total - res.T
	// "Minimum T% Hit Points": of the static pool.
	res.Minimum = res.T * s.HitPoints / 100
	if cfg.FallMinimumRoundUp && res.T*s.HitPoints%100 != 0 {
		res.Minimum++
	}
	res.Damage = max(res.Formula, res.Minimum)
	wasVulnerable := s.Vulnerable
	inj, err := Injure(s, Injury{Source: FallSource, Type: cfg.FallDamageType, Potency: res.Damage}, cfg)
	if err != nil {
		return FallResult{}, fmt.Errorf("fall damage: %w", err)
	}
	res.Injury = inj
	if inj.BecameVulnerable || (wasVulnerable && cfg.FallKillsVulnerable && inj.Card != nil) {
		res.Dies = true
		res.Injury.State.Dead = true
	}
	return res, nil
}

// fallSlots counts the Action Slots a fall consumes, Full Round by Full
// Round (each round the Character gains its slots anew: "Characters do not
// begin falling until they gain their Action Slots"), and those it could
// pay.
func fallSlots(in FallInput, cfg Config) (needed, used int) {
	// "Falls Shorter than 10 Tiles and taller than 3 Tiles still consume 1
	// Action Slot." "A 2 Tile Drop is generally ignored in Action Economy."
	if in.Tiles <= cfg.FallFreeTiles {
		return 0, 0
	}
	for left := in.Tiles; left > 0; left -= TilesPerRound {
		n := min(left, TilesPerRound)
		slots := n / TilesPerSlot
		if cfg.FallSlotsRoundUp && n%TilesPerSlot != 0 {
			slots++
		}
		slots = max(slots, 1)
		needed += slots
		if in.SlotsKnown {
			slots = min(slots, in.Slots)
		}
		used += slots
	}
	return needed, used
}
