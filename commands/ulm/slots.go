package ulm

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// slotsResult is the `result` of /ulm slots.
type slotsResult struct {
	kit.Outcome
	Base             int   `json:"base"`
	Alacrity         int   `json:"alacrity"`
	Bonus            int   `json:"bonus"`
	BonusFailed      []int `json:"bonus_failed"`
	Dilation         int   `json:"dilation"`
	TemporalSickness int   `json:"temporal_sickness"`
	Stress           int   `json:"stress"`
	Unshocked        int   `json:"unshocked"`
	Shock            bool  `json:"shock"`
}

const slotsExample = "/ulm slots agility:2 alacrity:1 bonus:2 dilation:1"

// slots answers /ulm slots: the Action Slots an Active Phase begins with.
func (h *handlers) slots(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, cfg, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	if err := h.ownSheet(ctx, c, ""); err != nil {
		return kit.Response{}, err
	}
	in := rules.SlotsInput{Agility: c.Need("agility"), BonusInstance: c.Or("bonus_instance", 1)}
	in.Alacrity = numbers(c, "alacrity", "alacrity:2,1")
	in.Bonus = numbers(c, "bonus", "bonus:2")
	in.Dilation = numbers(c, "dilation", "dilation:1,2")
	in.Shock = c.Flag("shock")
	res, err := kit.Rule(c, slotsExample, func() (rules.SlotsResult, error) { return rules.ActionSlots(in, cfg) })
	if err != nil {
		return kit.Response{}, err
	}
	result := &slotsResult{
		Outcome: kit.Outcome{Total: res.Slots}, Base: res.Base, Alacrity: res.Alacrity, Bonus: res.Bonus,
		BonusFailed: append([]int{}, res.BonusFailed...), Dilation: res.Dilation, TemporalSickness: res.DilationEffects,
		Stress: res.Stress, Unshocked: res.Unshocked, Shock: res.Shock,
	}
	return h.reply(ctx, c, "ulm slots", &result.Outcome, result, slotsLine(c.Who(), in.Agility, res))
}

// slotsLine is the slots of who in words; who is escaped already.
func slotsLine(who string, agility int, res rules.SlotsResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: %s (5%s Agility", who, kit.Plural(res.Slots, "Action Slot"), signed(agility))
	if res.Alacrity > 0 {
		fmt.Fprintf(&b, ", +%d Enhanced Alacrity", res.Alacrity)
	}
	if res.Bonus > 0 {
		fmt.Fprintf(&b, ", +%d Bonus", res.Bonus)
	}
	if res.Dilation > 0 {
		fmt.Fprintf(&b, ", +%d Time Dilation", res.Dilation)
	}
	b.WriteString(")")
	if res.Shock {
		fmt.Fprintf(&b, "; Shock reduces %d to %d", res.Unshocked, res.Slots)
	}
	if n := notes(
		note{len(res.BonusFailed) > 0, fmt.Sprintf("other Bonus sources (%s) fail to add more", joinInts(res.BonusFailed))},
		note{res.Stress > 0, fmt.Sprintf("1 Physical Stress for each Bonus slot you use (up to %d): a second Bonus instance this Full Round", res.Stress)},
		note{res.DilationEffects > 0, fmt.Sprintf("Temporal Sickness from %d Time Dilation effects, stacked", res.DilationEffects)},
	); len(n) > 0 {
		b.WriteString("\n" + strings.Join(n, "; "))
	}
	return b.String()
}

// signed is " + n" or " − n", to follow a number.
func signed(n int) string {
	if n < 0 {
		return fmt.Sprintf(" − %d", -n)
	}
	return fmt.Sprintf(" + %d", n)
}

// joinInts is v as "2, 4".
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
