package xhalem

import "testing"

func TestSpeed(t *testing.T) {
	tests := []struct {
		rule string
		in   SpeedInput
		want SpeedResult
	}{
		{"All mechs start with a base speed of 25 hexes ... 1 hex equals 15 feet.",
			SpeedInput{Kind: Machine},
			SpeedResult{Unit: "hexes", Base: 25, Max: 25, Total: 25, Feet: 375, Remaining: 25, Interval: 5, Reach: 5}},
		{"Gargantuan mechs have a base speed of 35 hexes. ... with the exception of gargantuan-sized mechs ... Their reach is 10 hexes/feet.",
			SpeedInput{Kind: Machine, Size: Gargantuan},
			SpeedResult{Unit: "hexes", Base: 35, Max: 35, Total: 35, Feet: 525, Remaining: 35, Interval: 5, Reach: 10}},
		{"So if your maximum speed is 35 hexes/feet, you can use your action to move an additional 35 hexes/feet in any direction for a total of 70 hexes/feet.",
			SpeedInput{Kind: Machine, Size: Gargantuan, Dash: true},
			SpeedResult{Unit: "hexes", Base: 35, Max: 35, Total: 70, Feet: 1050, Remaining: 70, Interval: 5, Reach: 10}},
		{"For example, if your speed is 40, then your combatant can move 20 hexes or feet, engage, and then move another 20 hexes or feet.",
			SpeedInput{Kind: Creature, Base: 40, Moved: 20},
			SpeedResult{Unit: "feet", Base: 40, Max: 40, Total: 40, Feet: 40, Remaining: 20, Interval: 5, Reach: 5}},
		{"The base speed for creatures depend on the race. (creature_speed 30 when none is given)",
			SpeedInput{Kind: Creature, Size: ExtraLarge},
			SpeedResult{Unit: "feet", Base: 30, Max: 30, Total: 30, Feet: 30, Remaining: 30, Interval: 10, Reach: 5}},
		{"giant or behemoth in size move in intervals of 15 feet during combat ... giant and behemoth-sized creatures. Their reach is 10",
			SpeedInput{Kind: Creature, Size: Behemoth, Base: 50},
			SpeedResult{Unit: "feet", Base: 50, Max: 50, Total: 50, Feet: 50, Remaining: 50, Interval: 15, Reach: 10}},
		{"The maximum speed is to include any benefits and penalties.",
			SpeedInput{Kind: Machine, Bonus: -5, Dash: true},
			SpeedResult{Unit: "hexes", Base: 25, Max: 20, Total: 40, Feet: 600, Remaining: 40, Interval: 5, Reach: 5}},
		{"You can never move at negative speed",
			SpeedInput{Kind: Creature, Base: 10, Bonus: -15},
			SpeedResult{Unit: "feet", Base: 10, Max: 0, Total: 0, Feet: 0, Remaining: 0, Interval: 5, Reach: 5}},
		{"if your movement is 50 hexes/feet, and its movement is 30 hexes/feet, your total movement while mounted is 30 hexes/feet.",
			SpeedInput{Kind: Creature, Base: 50, Mount: 30},
			SpeedResult{Unit: "feet", Base: 30, Max: 30, Total: 30, Feet: 30, Remaining: 30, Interval: 5, Reach: 5}},
		{"you can drag or carry the grappled creature with you, but your speed is halved",
			SpeedInput{Kind: Creature, Size: Medium, Base: 35, Drag: Small},
			SpeedResult{Unit: "feet", Base: 35, Max: 17, Dragging: true, Total: 17, Feet: 17, Remaining: 17, Interval: 5, Reach: 5}},
		{"unless the combatant is two or more sizes smaller than you.",
			SpeedInput{Kind: Creature, Size: Large, Base: 35, Drag: Small},
			SpeedResult{Unit: "feet", Base: 35, Max: 35, Total: 35, Feet: 35, Remaining: 35, Interval: 5, Reach: 5}},
		{"Difficult terrain in the air, such as a hurricane, would have the same effect as difficult terrain on the ground. (difficult_cost 2)",
			SpeedInput{Kind: Creature, Base: 60, Difficult: true, Moved: 10},
			SpeedResult{Unit: "feet", Base: 60, Max: 60, Difficult: true, Total: 30, Feet: 30, Remaining: 20, Interval: 5, Reach: 5}},
		{"For example, an Engine score of 1 and a Reactor score of 0 multiplied together equals 0, multiplied by 10,000 equals 0.",
			SpeedInput{Kind: Machine, Space: true, Engine: 1, Reactor: 0},
			SpeedResult{Unit: "hexes", Base: 25, Max: 25, Total: 25, Feet: 375, Remaining: 25, Interval: 5, Reach: 5, SpaceKm: ptr(0), PerSecondKm: ptr(0)}},
		{"multiply your Engine and Reactor scores together and then multiply by 10,000 ... To determine your speed per second, divide your space speed by 10.",
			SpeedInput{Kind: Machine, Space: true, Engine: 3, Reactor: 2, Rounds: 6},
			SpeedResult{Unit: "hexes", Base: 25, Max: 25, Total: 25, Feet: 375, Remaining: 25, Interval: 5, Reach: 5,
				SpaceKm: ptr(60000), PerSecondKm: ptr(6000), Seconds: 60, Distance: 150, SpaceDistance: ptr(360000)}},
		{"you would be unable to move while in space with a score of 0 or a negative",
			SpeedInput{Kind: Machine, Space: true, Engine: -2, Reactor: -3},
			SpeedResult{Unit: "hexes", Base: 25, Max: 25, Total: 25, Feet: 375, Remaining: 25, Interval: 5, Reach: 5, SpaceKm: ptr(0), PerSecondKm: ptr(0)}},
	}
	for _, tt := range tests {
		got, err := Speed(tt.in, DefaultConfig())
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		if !equalSpeed(got, tt.want) {
			t.Errorf("Speed(%+v)\n got %+v\nwant %+v\n(%s)", tt.in, got, tt.want, tt.rule)
		}
	}
	for name, in := range map[string]SpeedInput{
		"a creature in space":     {Kind: Creature, Space: true, Engine: 1, Reactor: 1},
		"dragging without a size": {Kind: Creature, Drag: Small},
		"a negative distance":     {Kind: Machine, Moved: -5},
		"no kind":                 {},
	} {
		if _, err := Speed(in, DefaultConfig()); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func equalSpeed(a, b SpeedResult) bool {
	eq := func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	if !eq(a.SpaceKm, b.SpaceKm) || !eq(a.PerSecondKm, b.PerSecondKm) || !eq(a.SpaceDistance, b.SpaceDistance) {
		return false
	}
	a.SpaceKm, a.PerSecondKm, a.SpaceDistance = nil, nil, nil
	b.SpaceKm, b.PerSecondKm, b.SpaceDistance = nil, nil, nil
	return a == b
}

// "If you have more than one speed, such as a walking speed and a flying
// speed, ... For example, if you have a speed of 30 and a flying speed of
// 60, you could fly 20 feet, then walk 10 feet, and then leap into the air
// to fly 30 feet more."
func TestRemainingAfterSwitchingSpeeds(t *testing.T) {
	moved := 20                                 // fly 20 feet
	if got := Remaining(30, moved); got != 10 { // switch to walking
		t.Errorf("walking after flying 20: %d left, want 10", got)
	}
	moved += 10                                 // walk 10 feet
	if got := Remaining(60, moved); got != 30 { // leap into the air
		t.Errorf("flying after 30 feet: %d left, want 30", got)
	}
	if got := Remaining(30, 30); got != 0 {
		t.Errorf("\"If the result is 0, you can't use the new speed\": %d left", got)
	}
	if got := Remaining(30, 45); got != 0 {
		t.Errorf("walking after flying 45: %d left, want 0", got)
	}
}

// "each round is 10 seconds ... This would mean that there are 6 rounds in
// a minute and 360 rounds in an hour."
func TestRounds(t *testing.T) {
	if got := Rounds(60); got != 6 {
		t.Errorf("rounds in a minute: %d, want 6", got)
	}
	if got := Rounds(3600); got != 360 {
		t.Errorf("rounds in an hour: %d, want 360", got)
	}
}

func TestSpaceSpeed(t *testing.T) {
	tests := []struct {
		rule            string
		engine, reactor int
		km, perSecond   int
	}{
		{"an Engine score of 1 and a Reactor score of 0 multiplied together equals 0, multiplied by 10,000 equals 0.", 1, 0, 0, 0},
		{"multiply your Engine and Reactor scores together and then multiply by 10,000", 2, 3, 60000, 6000},
		{"you would be unable to move while in space with a score of 0 or a negative", -1, 4, 0, 0},
	}
	for _, tt := range tests {
		km := SpaceSpeed(tt.engine, tt.reactor)
		if km != tt.km || PerSecond(km) != tt.perSecond {
			t.Errorf("Engine %d, Reactor %d: %d km (%d a second), want %d (%d) (%s)", tt.engine, tt.reactor, km, PerSecond(km), tt.km, tt.perSecond, tt.rule)
		}
	}
}
