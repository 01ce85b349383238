package burst

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// Action checks: /burst roll against a victory sum, and the Medicine
// checks /burst stabilise and /burst aid.

// Correct examples, shown with a mistake.
const (
	rollExample      = "/burst roll vs:15 bonus:2"
	stabiliseExample = "/burst stabilise medicine:2"
	aidExample       = "/burst aid medicine:2 durability:0"
)

type rollResult struct {
	kit.Outcome
	rolled
	VS      int `json:"vs"`
	Penalty int `json:"penalty,omitempty"`
}

// rollOptions are the roll subcommand's own options, which a stat: must
// not name (Sheet.Stat reads an option of the same name first).
var rollOptions = []string{"vs", "bonus", "resistance", "charges", "challenges"}

func (h *handlers) roll(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, in, res, err := serve(ctx, h, req, rollExample, readCheck, rules.Check)
	if err != nil {
		return kit.Response{}, err
	}
	out := rollResult{Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll), VS: res.VS, Penalty: res.Penalty}
	out.Succeeded(res.Success, res.Margin)
	vs := fmt.Sprint(res.VS)
	if res.Penalty > 0 {
		vs = fmt.Sprintf("%d (%d + %d %s visibility)", res.VS, in.VS, res.Penalty, in.Visibility)
	}
	line := fmt.Sprintf("**%s**: %d vs %s: %s%s", c.Who(), res.Roll.Total, vs, verdict(res.Success, res.Margin, "success", "failure"), burstsNote(res.Roll.Bursts))
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, line)
}

// readCheck reads an action check: its bonus dice are `bonus:`, or the
// sheet's `stat:`, and a Resistance check adds the resistance dice.
func readCheck(c *kit.Call) rules.CheckInput {
	vs, _ := c.Req.Options.Int("vs")
	n, label := 0, "bonus"
	if stat := strings.ToLower(strings.TrimSpace(c.Req.Options.String("stat"))); stat == "" {
		if v, ok := c.Req.Options.Int("bonus"); ok {
			n = int(v)
		}
	} else if !kit.StatNameRE.MatchString(stat) || slices.Contains(rollOptions, stat) {
		c.Failf("stat:%s is not a sheet stat name (example: /burst roll vs:15 stat:agility character:Rex)", stat)
	} else {
		label = stat
		n = bonusDice(c, "bonus", stat, rollExample)
	}
	if c.Req.Options.Bool("resist") || c.Req.Options.Has("resistance") {
		n = rules.ResistanceDice(n, c.Or("resistance", 0))
		label += "+resistance"
	}
	vis := kit.Pick(c, "visibility", rules.ParseVisibility, "/burst roll vs:15 bonus:2 visibility:low")
	return rules.CheckInput{Bonus: bonus(c, n), Label: label, VS: int(vs), Visibility: vis}
}

type stabiliseResult struct {
	kit.Outcome
	rolled
	VS     int  `json:"vs"`
	Stable bool `json:"stable"`
}

func (h *handlers) stabilise(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, _, res, err := serve(ctx, h, req, stabiliseExample, readStabilise, rules.Stabilise)
	if err != nil {
		return kit.Response{}, err
	}
	out := stabiliseResult{Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll), VS: res.VS, Stable: res.Stable}
	out.Succeeded(res.Success, res.Margin)
	then := "still dying"
	if res.Stable {
		then = "stable, unconscious until 1 Health returns"
	}
	line := fmt.Sprintf("**%s** (Medicine): %d vs %d: %s, %s%s", c.Who(), res.Roll.Total, res.VS, verdict(res.Success, res.Margin, "success", "failure"), then, burstsNote(res.Roll.Bursts))
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, line)
}

// readStabilise reads the healer's Medicine bonus dice: the option, else
// the sheet.
func readStabilise(c *kit.Call) rules.Bonus {
	return bonus(c, bonusDice(c, "medicine", "medicine", stabiliseExample))
}

type aidResult struct {
	kit.Outcome
	rolled
	VS         int `json:"vs"`
	Restored   int `json:"restored"`
	Durability int `json:"durability"`
	Actions    int `json:"actions"`
}

func (h *handlers) aid(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, in, res, err := serve(ctx, h, req, aidExample, readAid, rules.Aid)
	if err != nil {
		return kit.Response{}, err
	}
	out := aidResult{Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll), VS: res.VS, Restored: res.Restored, Durability: res.Durability, Actions: res.Actions}
	out.Succeeded(res.Success, res.Margin)
	then := "no Durability restored"
	if res.Success {
		then = fmt.Sprintf("restores %d Durability (%d → %d)", res.Restored, in.Durability, res.Durability)
	}
	line := fmt.Sprintf("**%s** gives emergency aid (Medicine): %d vs %d: %s, %s · %d actions%s",
		c.Who(), res.Roll.Total, res.VS, verdict(res.Success, res.Margin, "success", "failure"), then, res.Actions, burstsNote(res.Roll.Bursts))
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, line)
}

// readAid reads the healer's Medicine bonus dice, as readStabilise, and
// the patient's Durability, which is typed: the sheet is the healer's.
func readAid(c *kit.Call) rules.AidInput {
	medicine := bonus(c, bonusDice(c, "medicine", "medicine", aidExample))
	dur, _ := c.Req.Options.Int("durability")
	maxDur, _ := c.Req.Options.Int("max_durability")
	return rules.AidInput{Medicine: medicine, Durability: int(dur), MaxDurability: int(maxDur)}
}
