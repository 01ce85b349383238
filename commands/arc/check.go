package arc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// sideResult is one side of an ARC in the console's `result`.
type sideResult struct {
	Character string `json:"character,omitempty"`
	KS        int    `json:"ks"`
	US        int    `json:"us"`
	ES        int    `json:"es"`
	// The ES die: its sides, its face, the adjustment and the range the
	// die allows ("Min adj" to "Max adj").
	Die    int `json:"es_die"`
	Roll   int `json:"es_roll"`
	ESAdj  int `json:"es_adj"`
	MinAdj int `json:"min_adj"`
	MaxAdj int `json:"max_adj"`
	// The 'Other adjustments': the situation (advantages and
	// disadvantages), size, the GM's other, and their sum.
	Situation int `json:"situation_adj"`
	SizeAdj   int `json:"size_adj"`
	Adj       int `json:"adj"`
	Other     int `json:"other_adj"`
	ARC       int `json:"arc"`
	// Actions is how many actions the ES score allows in a turn.
	Actions int `json:"actions_per_turn"`
}

// newSide is the result of one side's ARC a, of the character name.
func newSide(name string, a rules.ARC) sideResult {
	return sideResult{
		Character: name, KS: a.KS, US: a.US, ES: a.ES,
		Die: a.Die, Roll: a.Roll, ESAdj: a.ESAdj, MinAdj: a.MinAdj, MaxAdj: a.MaxAdj,
		Situation: a.Adjustments.Situation(), SizeAdj: a.Adjustments.Size, Adj: a.Adjustments.Other, Other: a.Other,
		ARC: a.Value, Actions: a.Actions,
	}
}

// checkResult is the console's `result` of /arc check.
type checkResult struct {
	kit.Outcome
	sideResult
	Threshold     int    `json:"threshold"`
	ThresholdName string `json:"threshold_name,omitempty"`
}

// opposedResult is the console's `result` of /arc opposed.
type opposedResult struct {
	kit.Outcome
	Actor  sideResult `json:"actor"`
	Target sideResult `json:"target"`
}

// check answers /arc check, an ARCT: "An ARCT has to be compared against
// a fixed value, a threshold".
func (h *handlers) check(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc check threshold:average ks:7 us:4 es:5"
	c, cfg, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.CheckInput{ARCInput: readSide(c, c.Sheet, "", example)}
	threshold, name, err := cfg.Threshold(req.Options.String("threshold"))
	if err != nil {
		c.Failf("%v (example: %s)", err, example)
	}
	in.Threshold = threshold
	res, err := kit.Rule(c, example, func() (rules.CheckResult, error) { return cfg.Check(in, c.Tray.Dice()) })
	if err != nil {
		return kit.Response{}, err
	}
	result := checkResult{Outcome: kit.Outcome{Total: res.ARC.Value}, sideResult: newSide(c.Sheet.Name(), res.ARC), Threshold: threshold, ThresholdName: name}
	result.Succeeded(res.Success, res.Margin)
	hint := fmt.Sprintf("example: dice:%d, the ES %d die d%d", (res.ARC.Die+1)/2, in.ES, res.ARC.Die)
	if err := c.Finish(ctx, "arc check", &result.Outcome, &result, hint); err != nil {
		return kit.Response{}, err
	}
	vs := strconv.Itoa(threshold)
	if name != "" {
		vs += " (" + strings.ReplaceAll(name, "_", " ") + ")"
	}
	return c.Reply(result.ID, result,
		fmt.Sprintf("%d vs %s: %s", res.ARC.Value, vs, verdict(res.Success, res.Margin, "a tie fails")),
		fmt.Sprintf("%s ARCT: %s", who(c), explain(res.ARC))), nil
}

// opposition is what /arc opposed reads: the actor's side and the
// opponent's, the opponent's sheet (target:), and both sizes.
type opposition struct {
	actor, opp       rules.ARCInput
	target           kit.Sheet
	size, targetSize int
}

// opposed answers /arc opposed, an ARCO: "the second character has to
// perform a check and compare his result with the first one".
func (h *handlers) opposed(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc opposed ks:7 us:4 es:5 target_ks:6 target_us:5 target_es:3"
	c, cfg, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	in := h.readOpposition(ctx, c, cfg, example)
	res, err := kit.Rule(c, example, func() (rules.OpposedResult, error) { return cfg.Opposed(in.actor, in.opp, c.Tray.Dice()) })
	if err != nil {
		return kit.Response{}, err
	}
	result := opposedResult{Outcome: kit.Outcome{Total: res.Actor.Value}, Actor: newSide(c.Sheet.Name(), res.Actor), Target: newSide(in.target.Name(), res.Target)}
	result.Succeeded(res.Success, res.Margin)
	hint := fmt.Sprintf("example: dice:%d,%d, your d%d then the opponent's d%d", (res.Actor.Die+1)/2, (res.Target.Die+1)/2, res.Actor.Die, res.Target.Die)
	if err := c.Finish(ctx, "arc opposed", &result.Outcome, &result, hint); err != nil {
		return kit.Response{}, err
	}
	return c.Reply(result.ID, result, opposedLines(c, cfg, in, res)...), nil
}

// readOpposition reads the options of /arc opposed: the opponent's sheet,
// both sides, both sizes, and from the sizes the sides' size adjustments.
func (h *handlers) readOpposition(ctx context.Context, c *kit.Call, cfg rules.Config, example string) opposition {
	var in opposition
	if name := c.Req.Options.String("target"); name != "" {
		// As the asker may read it: a GM's hidden NPC is an opponent too.
		target, err := h.SheetNamed(ctx, c.Req, name, rules.SystemName)
		c.Fail(err)
		in.target = target
	}
	in.actor = readSide(c, c.Sheet, "", example)
	in.opp = readSide(c, in.target, "target_", example)
	in.size = readSize(c, cfg, c.Sheet, "size", example+" size:large")
	in.targetSize = readSize(c, cfg, in.target, "target_size", example+" target_size:small")
	var err error
	if in.actor.Adjustments.Size, in.opp.Adjustments.Size, err = cfg.SizeAdjustments(in.size, in.targetSize); err != nil {
		c.Failf("%v (example: %s)", err, example)
	}
	return in
}

// opposedLines say the outcome of an ARCO: both values and the verdict,
// each side's ARC spelled out, and the size adjustment when the sizes
// differ.
func opposedLines(c *kit.Call, cfg rules.Config, in opposition, res rules.OpposedResult) []string {
	opponent := "The opponent"
	if in.target.Name() != "" {
		opponent = "**" + kit.EscapeMarkdown(in.target.Name()) + "**"
	}
	var sizes string
	if in.size != in.targetSize {
		sizes = fmt.Sprintf("Size %s vs %s: %+d to the larger side", cfg.SizeName(in.size), cfg.SizeName(in.targetSize), max(res.Actor.Adjustments.Size, res.Target.Adjustments.Size))
	}
	return []string{
		fmt.Sprintf("%d vs %d: %s", res.Actor.Value, res.Target.Value, verdict(res.Success, res.Margin, "a tie fails the actor")),
		fmt.Sprintf("%s ARCO: %s", who(c), explain(res.Actor)),
		fmt.Sprintf("%s: %s", opponent, explain(res.Target)),
		sizes,
	}
}

// readSide reads one side of an ARC: its KS, US and ES (the options
// prefix+"ks", prefix+"us" and prefix+"es", else the stats ks, us and es
// of the sheet s) and its 'Other adjustments'.
func readSide(c *kit.Call, s kit.Sheet, prefix, example string) rules.ARCInput {
	in := rules.ARCInput{Adjustments: adjustments(c.Req, s, prefix)}
	for _, f := range []struct {
		def string
		v   *int
	}{{"ks", &in.KS}, {"us", &in.US}, {"es", &in.ES}} {
		opt := prefix + f.def
		v, err := score(c.Req, s, opt, f.def, example)
		if err != nil && prefix != "" && s.Name() == "" {
			// The opponent's sheet is named by target:, not character:.
			err = kit.Errorf("/%s needs %s: give %s:<number>, or target:<name> to read it from the opponent's sheet (example: %s)", c.Req.Typed(), opt, opt, example)
		}
		c.Fail(err)
		*f.v = v
	}
	return in
}

// adjustments reads the 'Other adjustments' options with prefix ("" or
// "target_"), else the stats of those names on the sheet s.
func adjustments(req *kit.Request, s kit.Sheet, prefix string) rules.Adjustments {
	return rules.Adjustments{
		Advantages:        s.Or(req, prefix+"adv", 0),
		Disadvantages:     s.Or(req, prefix+"dis", 0),
		HugeAdvantages:    s.Or(req, prefix+"huge_adv", 0),
		HugeDisadvantages: s.Or(req, prefix+"huge_dis", 0),
		Other:             s.Or(req, prefix+"adj", 0),
	}
}

// verdict words the outcome: "success by 7", "failure by 1", or for a
// tie "failure (a tie fails)".
func verdict(ok bool, margin int, tie string) string {
	switch {
	case ok:
		return fmt.Sprintf("success by %d", margin)
	case margin == 0:
		return "failure (" + tie + ")"
	}
	return fmt.Sprintf("failure by %d", -margin)
}

// explain spells one ARC out: the formula, the die and what it gave.
func explain(a rules.ARC) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("KS %d + US %d + ES adj %+d", a.KS, a.US, a.ESAdj))
	if a.Other != 0 || a.Adjustments != (rules.Adjustments{}) {
		parts = append(parts, fmt.Sprintf("other %+d", a.Other))
	}
	s := strings.Join(parts, " ") + fmt.Sprintf(" = **%d**", a.Value)
	if a.Roll <= a.ES {
		s += fmt.Sprintf(" · ES %d rolls a d%d: %d, at or under the score, adds %d", a.ES, a.Die, a.Roll, a.ESAdj)
	} else {
		s += fmt.Sprintf(" · ES %d rolls a d%d: %d, over the score by %d, takes %d", a.ES, a.Die, a.Roll, a.Roll-a.ES, -a.ESAdj)
	}
	return s + fmt.Sprintf(" (range %+d to %+d) · %s a turn", a.MinAdj, a.MaxAdj, kit.Plural(a.Actions, "action"))
}
