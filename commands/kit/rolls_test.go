package kit

import (
	"encoding/json"
	"testing"

	"github.com/tablehand/tablehand/rules/dice"
)

// A roll's `result` shows each group with its dice, the successes of a
// group that counts them, and a clamped die's face; the tray's one roll
// shows the same groups, and its breakdown is the roll's String.
func TestRollResultGroups(t *testing.T) {
	tray := &Tray{roller: dice.NewPhysical([]int{6, 5, 2, 4, 1, 8, 9, 3})}
	res, err := tray.Roll("4d6kh3 + 1d6mi3 + 3d10>=8")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(NewRollResult(res).Rolls)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"expr":"4d6kh3","total":15,"dice":[` +
		`{"sides":6,"value":6,"kept":true,"physical":true},{"sides":6,"value":5,"kept":true,"physical":true},` +
		`{"sides":6,"value":2,"kept":false,"physical":true},{"sides":6,"value":4,"kept":true,"physical":true}]},` +
		`{"expr":"1d6mi3","total":3,"dice":[{"sides":6,"value":3,"kept":true,"face":1,"physical":true,"clamped":true}]},` +
		`{"expr":"3d10\u003e=8","total":2,"dice":[{"sides":10,"value":8,"kept":true,"physical":true,"success":true},` +
		`{"sides":10,"value":9,"kept":true,"physical":true,"success":true},{"sides":10,"value":3,"kept":true,"physical":true}],"successes":2,"failures":0}]`
	if string(got) != want {
		t.Errorf("rolls:\n got %s\nwant %s", got, want)
	}
	if again, _ := json.Marshal(tray.Rolls()); string(again) != want {
		t.Errorf("tray's rolls:\n got %s\nwant %s", again, want)
	}
	if tray.Breakdown() != res.String() {
		t.Errorf("breakdown %q, want %q", tray.Breakdown(), res.String())
	}
	// The groups in one array, the dice of all of them in another, and the
	// counts of the group that counts successes.
	if allocs := testing.AllocsPerRun(100, func() { _ = tray.Rolls() }); allocs > 4 {
		t.Errorf("Rolls: %v allocs, want at most 4", allocs)
	}
}
