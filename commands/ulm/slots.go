package ulm

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// ulmSlotsResult is the `result` of /ulm slots.
type ulmSlotsResult struct {
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

const ulmSlotsExample = "/ulm slots agility:2 alacrity:1 bonus:2 dilation:1"

func (h *handlers) ulmSlots(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	agility, err := u.sheet.Need(req, "agility")
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.SlotsInput{Agility: agility, BonusInstance: u.sheet.Or(req, "bonus_instance", 1)}
	if in.Alacrity, err = u.list(req, "alacrity", "alacrity:2,1"); err != nil {
		return kit.Response{}, err
	}
	if in.Bonus, err = u.list(req, "bonus", "bonus:2"); err != nil {
		return kit.Response{}, err
	}
	if in.Dilation, err = u.list(req, "dilation", "dilation:1,2"); err != nil {
		return kit.Response{}, err
	}
	in.Shock = u.flag(req, "shock", false)
	res, err := rules.ActionSlots(in, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm slots", err, ulmSlotsExample)
	}
	who, err := u.who(req, "", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmSlotsResult{
		Outcome: kit.Outcome{Total: res.Slots}, Base: res.Base, Alacrity: res.Alacrity, Bonus: res.Bonus,
		BonusFailed: append([]int{}, res.BonusFailed...), Dilation: res.Dilation, TemporalSickness: res.DilationEffects,
		Stress: res.Stress, Unshocked: res.Unshocked, Shock: res.Shock,
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: %s (5%s Agility", kit.EscapeMarkdown(who), ulmPlural(res.Slots, "Action Slot"), ulmSigned(agility))
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
	var notes []string
	if len(res.BonusFailed) > 0 {
		notes = append(notes, fmt.Sprintf("other Bonus sources (%s) fail to add more", ulmJoinInts(res.BonusFailed)))
	}
	if res.Stress > 0 {
		notes = append(notes, fmt.Sprintf("1 Physical Stress for each Bonus slot you use (up to %d): a second Bonus instance this Full Round", res.Stress))
	}
	if res.DilationEffects > 0 {
		notes = append(notes, fmt.Sprintf("Temporal Sickness from %d Time Dilation effects, stacked", res.DilationEffects))
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "; "))
	}
	return h.ulmReply(ctx, req, u, "ulm slots", &result.Outcome, result, b.String())
}
