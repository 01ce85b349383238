package faction

import (
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/faction"
)

// readRoll reads the numbers in the order the rules take them and keeps
// the first mistake: the actor's before the defender's.
func TestReadRoll(t *testing.T) {
	for _, tc := range []struct {
		kind rules.RollType
		opts kit.Options
		want rollInput
		err  string
	}{
		{rules.RollStraightFaction, kit.Options{"attribute": "+4"}, rollInput{attr: 4}, ""},
		{rules.RollStraightAsset, kit.Options{"level": int64(2), "hta": int64(3)}, rollInput{level: 2, bonus: 3}, ""},
		{rules.RollOpposedFaction, kit.Options{"level": int64(2), "defender_attribute": "5"}, rollInput{level: 2, defender: 5}, ""},
		{rules.RollOpposedAsset, kit.Options{"level": int64(1), "defender_level": int64(6), "defender_hta": int64(2)},
			rollInput{level: 1, defender: 6, defenderBonus: 2}, ""},
		{rules.RollStraightFaction, kit.Options{}, rollInput{}, "straight-faction roll needs attribute"},
		{rules.RollStraightFaction, kit.Options{"attribute": "XYZ"}, rollInput{}, "attribute:XYZ is not a number or an Attribute"},
		// No campaign: an Attribute by name cannot be read.
		{rules.RollStraightFaction, kit.Options{"attribute": "RES", "faction": "Red"}, rollInput{}, "say whose with faction:"},
		{rules.RollOpposedFaction, kit.Options{}, rollInput{}, "opposed-faction roll needs level"},
		{rules.RollOpposedAsset, kit.Options{"level": int64(1)}, rollInput{level: 1}, "opposed-asset roll needs defender_level"},
	} {
		c := kit.Read(&kit.Request{Path: "faction/roll", Options: tc.opts})
		got := readRoll(c, tc.kind, nil)
		tc.want.kind = tc.kind
		err := c.Err()
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s %v: %+v, %v; want %+v", tc.kind, tc.opts, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %v: %v, want %q", tc.kind, tc.opts, err, tc.err)
		}
	}
}
