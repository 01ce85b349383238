package commands

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tablehand/tablehand/commands/kit"
)

// TestTrackerFitsABigFight: the tracker of a fight as large as the limits
// allow fits its embed; a fight that fits with less detail shows every
// combatant (conditions by name), and a larger one shows as many as fit,
// the current combatant among them, and how many more there are. /init
// log of the most entries comes in as many messages as it takes.
func TestTrackerFitsABigFight(t *testing.T) {
	it := newInitTable(t)
	name := func(i int) string { return fmt.Sprintf("Goblin with a very long name number %d of the horde", i) }
	it.Must("gm", "/init start")
	for i := 1; i <= 30; i++ {
		it.Must("gm", fmt.Sprintf("/init add name:%q hp:10", name(i)))
	}
	it.Must("gm", "/init begin")
	for i := 1; i <= 30; i++ {
		it.Must("gm", fmt.Sprintf("/init effect target:%q effect:%q rounds:3 source:%q", name(i), "poisoned by the green venom of the marsh", name(1)))
	}
	desc := func() string {
		resp := it.Must("gm", "/init list")
		d := resp.Embeds[0].Description
		if n := utf8.RuneCountInString(d); n > kit.MaxEmbedDesc || strings.Contains(d, "truncated") {
			t.Fatalf("the tracker is %d characters: %s", n, d)
		}
		return d
	}
	d := desc()
	for i := 1; i <= 30; i++ {
		if !strings.Contains(d, name(i)+"**") {
			t.Errorf("30 combatants: %s is not on the tracker", name(i))
		}
	}
	if !strings.Contains(d, "· poisoned by the green venom of the marsh") || strings.Contains(d, "ends at") {
		t.Errorf("30 combatants: want the conditions by name alone:\n%s", d)
	}
	for i := 31; i <= 100; i++ {
		it.Must("gm", fmt.Sprintf("/init add name:%q hp:10", name(i)))
	}
	d = desc()
	cur := view(t, it.Must("gm", "/init list")).Turn
	if cur == nil || !strings.Contains(d, "▶ **"+*cur+"**") || !strings.Contains(d, "more combatants: the result of /init list names them all") {
		t.Errorf("100 combatants: want the current one and how many more:\n%s", d)
	}
	log := it.Must("gm", "/init log count:25")
	for _, m := range append([]kit.Response{log}, log.Followups...) {
		if n := utf8.RuneCountInString(m.Content); n > kit.MaxContent || strings.Contains(m.Content, "truncated") {
			t.Errorf("/init log: a message of %d characters, or cut", n)
		}
	}
	if len(log.Followups) == 0 {
		t.Errorf("/init log of 25 long entries in one message of %d characters", utf8.RuneCountInString(log.Content))
	}
}
