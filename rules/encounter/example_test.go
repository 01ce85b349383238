package encounter_test

import (
	"encoding/json"
	"fmt"

	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
)

// A command loads the encounter, applies one operation with the policy of
// its system, and saves the event with the state after it.
func Example() {
	policies := encounter.NewPolicies() // with the systems' policies at wiring time
	e := encounter.New("")
	p, err := policies.For(e.System)
	if err != nil {
		panic(err)
	}
	for _, c := range []encounter.Combatant{
		{Name: "Aria", Owner: "1234", Stats: map[string]int{"init": 3}, Resources: map[string]int{"hp": 20}},
		{Name: "Goblin", NPC: true, Stats: map[string]int{"init": 2}, Resources: map[string]int{"hp": 7}},
	} {
		if _, err := e.Add(p, nil, "gm", c); err != nil {
			panic(err)
		}
	}
	// The dice the table rolled: 9 for Aria, 15 for the goblin.
	ev, err := e.Begin(p, dice.NewPhysical([]int{9, 15}), "gm")
	if err != nil {
		panic(err)
	}
	fmt.Println(ev.Text(false))
	if ev, err = e.Damage(p, "1234", "goblin", 5, "fire"); err != nil {
		panic(err)
	}
	fmt.Println(ev.Summary)
	if _, err = e.Damage(p, "1234", "Ogre", 5, ""); err != nil {
		fmt.Println(err)
	}
	out, err := json.Marshal(e.View(false))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// The fight begins: round 1.
	// Order: Goblin, Aria.
	// Round 1: Goblin's turn.
	// Aria (initiative): 1d20 (9) + 3 = 12
	// Goblin (initiative): 1d20 (15) + 2 = 17
	// Goblin took 5 fire damage (hp 7 -> 2)
	// there is no combatant named Ogre: see /init list
	// {"round":1,"turn":"Goblin","order":["Goblin","Aria"],"combatants":[{"name":"Goblin","npc":true,"resources":{"hp":2},"conditions":[],"defeated":false},{"name":"Aria","owner":"1234","resources":{"hp":20},"conditions":[],"defeated":false}]}
}
