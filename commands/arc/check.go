package arc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// arcSideResult is one side of an ARC in the console's `result`.
type arcSideResult struct {
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

func newArcSide(name string, a rules.ARC) arcSideResult {
	return arcSideResult{
		Character: name, KS: a.KS, US: a.US, ES: a.ES,
		Die: a.Die, Roll: a.Roll, ESAdj: a.ESAdj, MinAdj: a.MinAdj, MaxAdj: a.MaxAdj,
		Situation: a.Adjustments.Situation(), SizeAdj: a.Adjustments.Size, Adj: a.Adjustments.Other, Other: a.Other,
		ARC: a.Value, Actions: a.Actions,
	}
}

type arcCheckResult struct {
	kit.Outcome
	arcSideResult
	Threshold     int    `json:"threshold"`
	ThresholdName string `json:"threshold_name,omitempty"`
}

type arcOpposedResult struct {
	kit.Outcome
	Actor  arcSideResult `json:"actor"`
	Target arcSideResult `json:"target"`
}

// arcDice rolls die by die for the rules code through the Table, one
// expression a die, so every die shows in the reply and the log as /roll
// shows it. An error that is not the user's is kept apart, so the handler
// can report it as ours rather than as a mistake.
type arcDice struct {
	t   *kit.Tray
	err error
}

func (d *arcDice) Roll(sides int) (int, error) {
	res, err := d.t.Roll("1d" + strconv.Itoa(sides))
	if err != nil {
		if _, ok := kit.AsUserError(err); !ok && d.err == nil {
			d.err = err
		}
		return 0, err
	}
	return res.Total, nil
}

// arcRulesError turns an error of the rules into what the user sees: a
// mistake in what they gave, shown with a correct example; a failure of the
// dice machinery stays an internal error.
func arcRulesError(err error, d *arcDice, example string) error {
	if d != nil && d.err != nil {
		return fmt.Errorf("arc: roll a die for the rules: %w", d.err)
	}
	if _, ok := kit.AsUserError(err); ok {
		return err
	}
	return &kit.UserError{Msg: err.Error() + " (example: " + example + ")", Err: err}
}

// arcFinish is finish, with an example of the `dice:` the command needed
// when the values did not match.
func (h *handlers) arcFinish(ctx context.Context, req *kit.Request, t *kit.Tray, expr string, o *kit.Outcome, result any, diceHint string) error {
	err := h.Finish(ctx, req, t, expr, o, result)
	if ue, ok := kit.AsUserError(err); ok && diceHint != "" {
		return &kit.UserError{Msg: ue.Msg + " (" + diceHint + ")", Detail: ue.Detail, Err: err}
	}
	return err
}

// arcSheetStat reads the stat called name from the sheet itself, whatever
// the options hold (an option of that name may be text, or mean something
// else).
func arcSheetStat(s kit.Sheet, name string) (int, bool) {
	return s.Stat(&kit.Request{}, name)
}

// arcScore reads a KS, US or ES: the option opt as a number or as the name
// of a stat of the sheet; without the option, the sheet's stat def.
func arcScore(req *kit.Request, s kit.Sheet, opt, def, example string) (int, error) {
	text := strings.TrimSpace(req.Options.String(opt))
	if text == "" {
		if v, ok := arcSheetStat(s, def); ok {
			return v, nil
		}
		if s.Name() != "" {
			return 0, kit.Errorf("/%s needs %s: give %s:<number or stat name>, or add %s to %s's sheet (example: %s)",
				strings.ReplaceAll(req.Path, "/", " "), opt, opt, def, s.Name(), example)
		}
		return 0, kit.Errorf("/%s needs %s: give %s:<number>, or character:<name> to read it from a sheet (example: %s)",
			strings.ReplaceAll(req.Path, "/", " "), opt, opt, example)
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(text, "+")); err == nil {
		return n, nil
	}
	stat := strings.ToLower(text)
	if s.Name() == "" {
		return 0, kit.Errorf("%s:%s names a stat, but no sheet was given: add character:<name>, or give a number (example: %s)", opt, text, example)
	}
	v, ok := arcSheetStat(s, stat)
	if !ok {
		return 0, kit.Errorf("%s has no stat %q for %s: see /character show name:%s (example: %s)", s.Name(), stat, opt, s.Name(), example)
	}
	return v, nil
}

// arcAdjustments reads the 'Other adjustments' options with prefix ("" or
// "target_").
func arcAdjustments(req *kit.Request, s kit.Sheet, prefix string) rules.Adjustments {
	return rules.Adjustments{
		Advantages:        s.Or(req, prefix+"adv", 0),
		Disadvantages:     s.Or(req, prefix+"dis", 0),
		HugeAdvantages:    s.Or(req, prefix+"huge_adv", 0),
		HugeDisadvantages: s.Or(req, prefix+"huge_dis", 0),
		Other:             s.Or(req, prefix+"adj", 0),
	}
}

// arcSizeOf reads a size option (a name or -3..3), else the sheet's "size"
// stat, else medium.
func (h *handlers) arcSizeOf(req *kit.Request, s kit.Sheet, opt, example string) (int, error) {
	cfg := h.config()
	if text := req.Options.String(opt); text != "" {
		size, err := cfg.Size(text)
		if err != nil {
			return 0, kit.Errorf("%s: %v (example: %s)", opt, err, example)
		}
		return size, nil
	}
	if v, ok := arcSheetStat(s, "size"); ok {
		if v < rules.MinSize || v > rules.MaxSize {
			return 0, kit.Errorf("%s's size stat is %d; sizes go from %d to %d, medium 0", s.Name(), v, rules.MinSize, rules.MaxSize)
		}
		return v, nil
	}
	return rules.Medium, nil
}

func (h *handlers) arcCheck(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc check threshold:average ks:7 us:4 es:5"
	cfg := h.config()
	sheet, err := h.Sheet(ctx, req, "arc")
	if err != nil {
		return kit.Response{}, err
	}
	var in rules.CheckInput
	if in.KS, err = arcScore(req, sheet, "ks", "ks", example); err != nil {
		return kit.Response{}, err
	}
	if in.US, err = arcScore(req, sheet, "us", "us", example); err != nil {
		return kit.Response{}, err
	}
	if in.ES, err = arcScore(req, sheet, "es", "es", example); err != nil {
		return kit.Response{}, err
	}
	in.Adjustments = arcAdjustments(req, sheet, "")
	threshold, name, err := cfg.Threshold(req.Options.String("threshold"))
	if err != nil {
		return kit.Response{}, kit.Errorf("%v (example: %s)", err, example)
	}
	in.Threshold = threshold
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	d := &arcDice{t: t}
	res, err := cfg.Check(in, d)
	if err != nil {
		return kit.Response{}, arcRulesError(err, d, example)
	}
	result := arcCheckResult{Outcome: kit.Outcome{Total: res.ARC.Value}, arcSideResult: newArcSide(sheet.Name(), res.ARC), Threshold: threshold, ThresholdName: name}
	result.Succeeded(res.Success, res.Margin)
	hint := fmt.Sprintf("example: dice:%d, the ES %d die d%d", (res.ARC.Die+1)/2, in.ES, res.ARC.Die)
	if err := h.arcFinish(ctx, req, t, "arc check", &result.Outcome, &result, hint); err != nil {
		return kit.Response{}, err
	}
	vs := strconv.Itoa(threshold)
	if name != "" {
		vs += " (" + strings.ReplaceAll(name, "_", " ") + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d vs %s: %s\n", res.ARC.Value, vs, arcVerdict(res.Success, res.Margin, "a tie fails"))
	fmt.Fprintf(&b, "%s ARCT: %s\n", arcWho(req, sheet.Name()), arcExplain(res.ARC))
	b.WriteString(t.Breakdown() + "\n-# roll " + result.ID)
	return kit.Response{Content: b.String(), Ephemeral: req.Options.Bool("private"), Result: result}, nil
}

// arcVerdict words the outcome: "success by 7", "failure by 1", or for a
// tie "failure (a tie fails)".
func arcVerdict(ok bool, margin int, tie string) string {
	switch {
	case ok:
		return fmt.Sprintf("success by %d", margin)
	case margin == 0:
		return "failure (" + tie + ")"
	}
	return fmt.Sprintf("failure by %d", -margin)
}

// arcWho names who acted, in bold: the user, or the character and the
// user who plays it.
func arcWho(req *kit.Request, character string) string {
	if character == "" {
		return "**" + kit.DisplayName(req.User) + "**"
	}
	return "**" + kit.EscapeMarkdown(character) + "** (" + kit.DisplayName(req.User) + ")"
}

// arcExplain spells one ARC out: the formula, the die and what it gave.
func arcExplain(a rules.ARC) string {
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
	return s + fmt.Sprintf(" (range %+d to %+d) · %s a turn", a.MinAdj, a.MaxAdj, arcPlural(a.Actions, "action"))
}

func arcPlural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

func (h *handlers) arcOpposed(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc opposed ks:7 us:4 es:5 target_ks:6 target_us:5 target_es:3"
	cfg := h.config()
	sheet, err := h.Sheet(ctx, req, "arc")
	if err != nil {
		return kit.Response{}, err
	}
	var target kit.Sheet
	if name := req.Options.String("target"); name != "" {
		if target, err = h.Sheet(ctx, &kit.Request{GuildID: req.GuildID, Path: req.Path, Options: kit.Options{"character": name}}, "arc"); err != nil {
			return kit.Response{}, err
		}
	}
	var actor, opp rules.ARCInput
	for _, f := range []struct {
		s        kit.Sheet
		opt, def string
		v        *int
	}{
		{sheet, "ks", "ks", &actor.KS}, {sheet, "us", "us", &actor.US}, {sheet, "es", "es", &actor.ES},
		{target, "target_ks", "ks", &opp.KS}, {target, "target_us", "us", &opp.US}, {target, "target_es", "es", &opp.ES},
	} {
		if *f.v, err = arcScore(req, f.s, f.opt, f.def, example); err != nil {
			if f.s.Name() == "" && strings.HasPrefix(f.opt, "target_") {
				return kit.Response{}, kit.Errorf("/arc opposed needs %s: give %s:<number>, or target:<name> to read it from the opponent's sheet (example: %s)", f.opt, f.opt, example)
			}
			return kit.Response{}, err
		}
	}
	actor.Adjustments = arcAdjustments(req, sheet, "")
	opp.Adjustments = arcAdjustments(req, target, "target_")
	size, err := h.arcSizeOf(req, sheet, "size", example+" size:large")
	if err != nil {
		return kit.Response{}, err
	}
	targetSize, err := h.arcSizeOf(req, target, "target_size", example+" target_size:small")
	if err != nil {
		return kit.Response{}, err
	}
	if actor.Adjustments.Size, opp.Adjustments.Size, err = cfg.SizeAdjustments(size, targetSize); err != nil {
		return kit.Response{}, kit.Errorf("%v (example: %s)", err, example)
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	d := &arcDice{t: t}
	res, err := cfg.Opposed(actor, opp, d)
	if err != nil {
		return kit.Response{}, arcRulesError(err, d, example)
	}
	result := arcOpposedResult{Outcome: kit.Outcome{Total: res.Actor.Value}, Actor: newArcSide(sheet.Name(), res.Actor), Target: newArcSide(target.Name(), res.Target)}
	result.Succeeded(res.Success, res.Margin)
	hint := fmt.Sprintf("example: dice:%d,%d, your d%d then the opponent's d%d", (res.Actor.Die+1)/2, (res.Target.Die+1)/2, res.Actor.Die, res.Target.Die)
	if err := h.arcFinish(ctx, req, t, "arc opposed", &result.Outcome, &result, hint); err != nil {
		return kit.Response{}, err
	}
	opponent := "The opponent"
	if target.Name() != "" {
		opponent = "**" + kit.EscapeMarkdown(target.Name()) + "**"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d vs %d: %s\n", res.Actor.Value, res.Target.Value, arcVerdict(res.Success, res.Margin, "a tie fails the actor"))
	fmt.Fprintf(&b, "%s ARCO: %s\n", arcWho(req, sheet.Name()), arcExplain(res.Actor))
	fmt.Fprintf(&b, "%s: %s\n", opponent, arcExplain(res.Target))
	if size != targetSize {
		fmt.Fprintf(&b, "Size %s vs %s: %+d to the larger side\n", cfg.SizeName(size), cfg.SizeName(targetSize), max(res.Actor.Adjustments.Size, res.Target.Adjustments.Size))
	}
	b.WriteString(t.Breakdown() + "\n-# roll " + result.ID)
	return kit.Response{Content: b.String(), Ephemeral: req.Options.Bool("private"), Result: result}, nil
}
