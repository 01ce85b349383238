package kit

import (
	"strings"
	"testing"
)

// A sheet may not hold a stat no roll could read: one whose name reads as
// dice syntax. The error names it and says why; removing one an older
// sheet holds is still allowed.
func TestParseStatsRefusesDiceSyntax(t *testing.T) {
	for _, name := range []string{"d", "kh", "df", "adv", "e", "r", "d6", "khe"} {
		_, err := ParseStats(name + "=3")
		ue, ok := AsUserError(err)
		if !ok {
			t.Errorf("ParseStats(%s=3) error = %v, want a *UserError", name, err)
			continue
		}
		if !strings.Contains(ue.Msg, "a stat cannot be named "+name+": in a roll, "+name+" reads as dice syntax") ||
			!strings.Contains(ue.Msg, "(example: stats:\"my_"+name+"=3\")") {
			t.Errorf("ParseStats(%s=3) error = %q, want it to name %s, say why and give an example", name, ue.Msg, name)
		}
		if _, err := ParseStats("my_" + name + "=3"); err != nil {
			t.Errorf("the example my_%s=3 is refused: %v", name, err)
		}
		if got, err := ParseStats(name + "=-"); err != nil || len(got) != 1 || got[name] != nil {
			t.Errorf("ParseStats(%s=-) = %v, %v, want the stat removed", name, got, err)
		}
	}
	got, err := ParseStats("som=3 dex=-1 str_mod=2")
	if err != nil || *got["som"] != 3 || *got["dex"] != -1 || *got["str_mod"] != 2 {
		t.Errorf("ParseStats(som=3 dex=-1 str_mod=2) = %v, %v", got, err)
	}
}
