package encounter

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// BenchmarkNext measures one /init next as storage runs it: restore the
// encounter from JSON, Next, snapshot it back. The encounter has 10
// combatants, each with resources, counters and a condition. Run with
//
//	go test -run '^$' -bench Next -benchmem ./rules/encounter/
func BenchmarkNext(b *testing.B) {
	e := New("")
	roller := dice.NewRandom(rand.New(rand.NewPCG(1, 2)))
	for i := range 10 {
		c := Combatant{Name: "Goblin " + strconv.Itoa(i+1), NPC: i >= 4, Owner: "user" + strconv.Itoa(i),
			Stats:     map[string]int{"init": i % 4},
			Resources: map[string]int{"hp": 20, "vigor": 10}, Max: map[string]int{"hp": 20},
			Counters: map[string]int{"reactions": 0}}
		if _, err := e.Add(Generic{}, roller, "gm", c); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := e.Begin(Generic{}, roller, "gm"); err != nil {
		b.Fatal(err)
	}
	for i := range 10 {
		// Conditions long enough not to end during the benchmark.
		cd := Condition{Name: "blessed", Rounds: MaxRounds}
		if _, err := e.AddCondition("gm", e.Combatants[i].Name, cd, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("json+next", func(b *testing.B) {
		data, err := e.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			x, err := Restore(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := x.Next(Generic{}, "gm"); err != nil {
				b.Fatal(err)
			}
			if data, err = x.Snapshot(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("next", func(b *testing.B) {
		x := e.Clone()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := x.Next(Generic{}, "gm"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
