package kit

import (
	"errors"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/db"
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

// PickCharacter: of the sheets of one name, the one the asker reads; of a
// visible and a hidden one, which the GM (or the hidden one's owner) reads
// both of, the one hidden: says, and without it the mistake naming both
// and a correct example. A player who may not read the hidden one meets
// the visible one, as if the hidden one were not there.
func TestPickCharacter(t *testing.T) {
	shown := db.Character{ID: 1, Name: "shade", OwnerID: "bob", OwnerName: "Bob"}
	secret := db.Character{ID: 2, Name: "Shade", OwnerID: "gm", OwnerName: "GM", Hidden: true}
	yes, no := true, false
	gm := &Request{Path: "roll", GM: true, User: User{ID: "gm"}}
	bob := &Request{Path: "roll", User: User{ID: "bob"}}
	alice := &Request{Path: "roll", User: User{ID: "alice"}}
	for _, tc := range []struct {
		name   string
		req    *Request
		rows   []db.Character
		hidden *bool
		want   int64 // the sheet's ID; 0: not found
		two    bool  // the mistake of two
	}{
		{"none", gm, nil, nil, 0, false},
		{"the hidden one alone, to a player", bob, []db.Character{secret}, nil, 0, false},
		{"the hidden one alone, to the GM", gm, []db.Character{secret}, nil, 2, false},
		{"both, to the player", bob, []db.Character{shown, secret}, nil, 1, false},
		{"both, to another player, hidden:true", alice, []db.Character{shown, secret}, &yes, 1, false},
		{"both, to the GM", gm, []db.Character{shown, secret}, nil, 0, true},
		{"both, hidden first, to the GM", gm, []db.Character{secret, shown}, nil, 0, true},
		{"both, to the GM, hidden:true", gm, []db.Character{shown, secret}, &yes, 2, false},
		{"both, to the GM, hidden:false", gm, []db.Character{secret, shown}, &no, 1, false},
	} {
		c, err := PickCharacter(tc.req, "Shade", tc.rows, tc.hidden)
		switch {
		case tc.two:
			ue, ok := AsUserError(err)
			if !ok || !errors.Is(err, ErrTwoSheets) {
				t.Errorf("%s: %+v, %v; want the mistake of two", tc.name, c, err)
				continue
			}
			want := `two characters are named Shade here, Bob's and a hidden one: rename the hidden one so that /roll can tell them apart (example: /character set name:"Shade" hidden:true rename:"Shade 2")`
			if ue.Msg != want {
				t.Errorf("%s: %q\nwant %q", tc.name, ue.Msg, want)
			}
		case tc.want == 0:
			if !errors.Is(err, db.ErrNotFound) {
				t.Errorf("%s: %+v, %v; want not found", tc.name, c, err)
			}
		case err != nil || c.ID != tc.want:
			t.Errorf("%s: %+v, %v; want sheet %d", tc.name, c, err, tc.want)
		}
	}
}
