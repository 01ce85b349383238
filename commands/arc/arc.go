package arc

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// /arc speaks the rules of seed 001 (rules/arc): Action Resolution Checks
// against a threshold (check) or opposed (opposed), reaction checks,
// the declaration order of a turn, and movement and load (move).
//
// KS, US and ES are typed as text: a number, or the name of a stat on the
// character's sheet. A character has many of each (the text's own example
// adds "the score in Control", "the score in Accuracy" and "ES Tamper"), so
// `ks:control us:accuracy es:tamper` reads the three from one sheet; left
// out, they are read from the sheet's stats named ks, us and es.

var arcPrivate = kit.Option{Type: kit.Boolean, Name: "private", Description: "Only you see the result"}

// arcScoreOption is a KS, US or ES option: a number or a stat of the sheet.
func arcScoreOption(name, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, MaxLength: 32, Autocomplete: true}
}

func arcCount(name, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, MinValue: kit.Float(0), MaxValue: kit.Float(20)}
}

func arcAdj(name, desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: name, Description: desc, MinValue: kit.Float(-100), MaxValue: kit.Float(100)}
}

func arcSize(name, desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: name, Description: desc, MaxLength: 32, Autocomplete: true}
}

var arcCommand = kit.Command{
	Name:        "arc",
	Description: "Arc rules: action checks (ARC), reactions, declaration order, movement and load",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "check", Description: "ARCT: KS + US + ES die + adjustments, above a threshold to succeed", Options: []kit.Option{
			{Type: kit.String, Name: "threshold", Description: "Complexity: a name (average = 9) or a number", Required: true, MaxLength: 32, Autocomplete: true},
			arcScoreOption("ks", "KS score, or a stat of the sheet (e.g. control)"),
			arcScoreOption("us", "US score, or a stat of the sheet (e.g. accuracy)"),
			arcScoreOption("es", "ES score (sets the die), or a stat of the sheet (e.g. tamper)"),
			arcCount("adv", "Advantages of the situation: +1 each"),
			arcCount("dis", "Disadvantages of the situation: -1 each"),
			arcCount("huge_adv", "Huge advantages (exceptional): +2 each"),
			arcCount("huge_dis", "Huge disadvantages (exceptional): -2 each"),
			arcAdj("adj", "Other adjustment from the GM, e.g. -1 for inadequate armor"),
			kit.DiceOption, kit.CharacterOption, arcPrivate,
		}},
		{Type: kit.SubCommand, Name: "opposed", Description: "ARCO: both sides roll an ARC; higher wins, a tie fails the actor", Options: []kit.Option{
			arcScoreOption("ks", "Your KS score, or a stat of your sheet"),
			arcScoreOption("us", "Your US score, or a stat of your sheet"),
			arcScoreOption("es", "Your ES score, or a stat of your sheet"),
			arcScoreOption("target_ks", "The opponent's KS score, or a stat of their sheet"),
			arcScoreOption("target_us", "The opponent's US score, or a stat of their sheet"),
			arcScoreOption("target_es", "The opponent's ES score, or a stat of their sheet"),
			arcCount("adv", "Your advantages: +1 each"),
			arcCount("dis", "Your disadvantages: -1 each"),
			arcCount("huge_adv", "Your huge advantages: +2 each"),
			arcCount("huge_dis", "Your huge disadvantages: -2 each"),
			arcAdj("adj", "Your other adjustment from the GM"),
			arcCount("target_adv", "The opponent's advantages: +1 each"),
			arcCount("target_dis", "The opponent's disadvantages: -1 each"),
			arcCount("target_huge_adv", "The opponent's huge advantages: +2 each"),
			arcCount("target_huge_dis", "The opponent's huge disadvantages: -2 each"),
			arcAdj("target_adj", "The opponent's other adjustment from the GM"),
			arcSize("size", "Your size (default medium): the larger side gains"),
			arcSize("target_size", "The opponent's size (default medium)"),
			kit.DiceOption, kit.CharacterOption,
			{Type: kit.String, Name: "target", Description: "Read the opponent's stats from this character's sheet", Autocomplete: true, MaxLength: kit.MaxNameLen},
			arcPrivate,
		}},
		{Type: kit.SubCommand, Name: "reaction", Description: "Reaction check: 1d10 at or under SOM, or lose the turn", Options: []kit.Option{
			{Type: kit.Integer, Name: "som", Description: "State of Mind, 1 (Panicked) to 10 (Exalted)", MinValue: kit.Float(rules.MinSOM), MaxValue: kit.Float(rules.MaxSOM)},
			kit.DiceOption, kit.CharacterOption, arcPrivate,
		}},
		{Type: kit.SubCommand, Name: "order", Description: "Declaration order: ascending SOM, then Empathy, Perception, 1d10", Options: []kit.Option{
			{Type: kit.String, Name: "who", Required: true, MaxLength: 1000,
				Description: "Sheet names, or name som=5 empathy=3 perception=4; comma between"},
			{Type: kit.String, Name: "surprised", MaxLength: 1000, Description: "Who is surprised or unconscious: they skip this turn"},
			kit.DiceOption,
		}},
		{Type: kit.SubCommand, Name: "move", Description: "MOV per turn (6 s) by size, Control and burden; LOADT; actions a turn", Options: []kit.Option{
			{Type: kit.Integer, Name: "control", Description: "Control score (sets the MOV bonus or malus)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Integer, Name: "build", Description: "Build score (LOADT = Build x 3 kg)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Number, Name: "load", Description: "Weight borne in kg, clothing included", MinValue: kit.Float(0), MaxValue: kit.Float(1e6)},
			{Type: kit.Number, Name: "clothing", Description: "Of that, kg of clothing (Build 1 bears clothing only)", MinValue: kit.Float(0), MaxValue: kit.Float(1e6)},
			arcSize("size", "Size (default medium, as humans)"),
			{Type: kit.Integer, Name: "mov", Description: "Base MOV at medium size in m/turn (default 8, humans)", MinValue: kit.Float(1), MaxValue: kit.Float(1000)},
			arcScoreOption("es", "An ES score, or a stat of the sheet: actions a turn"),
			{Type: kit.Integer, Name: "turns", Description: "Distance covered in this many turns", MinValue: kit.Float(1), MaxValue: kit.Float(10000)},
			kit.CharacterOption, arcPrivate,
		}},
	},
}

// registerArc adds /arc, the rules of seed arc (see rules/arc).
func (h *handlers) registerArc(r *kit.Router) {
	r.Define(arcCommand)
	r.Route("arc/check", h.arcCheck, false)
	r.Route("arc/opposed", h.arcOpposed, false)
	r.Route("arc/reaction", h.arcReaction, false)
	r.Route("arc/order", h.arcOrder, false)
	r.Route("arc/move", h.arcMove, false)
	for _, sub := range []string{"check", "opposed", "reaction", "move"} {
		r.RouteAutocomplete("arc/"+sub, "character", h.SuggestCharacters)
	}
	r.RouteAutocomplete("arc/opposed", "target", h.SuggestCharacters)
	r.RouteAutocomplete("arc/check", "threshold", h.arcSuggestThresholds)
	for _, o := range []string{"ks", "us", "es"} {
		r.RouteAutocomplete("arc/check", o, h.arcSuggestStats)
		r.RouteAutocomplete("arc/opposed", o, h.arcSuggestStats)
		r.RouteAutocomplete("arc/opposed", "target_"+o, h.arcSuggestStats)
	}
	r.RouteAutocomplete("arc/move", "es", h.arcSuggestStats)
	for _, o := range []string{"arc/opposed:size", "arc/opposed:target_size", "arc/move:size"} {
		path, opt, _ := strings.Cut(o, ":")
		r.RouteAutocomplete(path, opt, h.arcSuggestSizes)
	}
}

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

type arcReactionResult struct {
	kit.Outcome
	Character string `json:"character,omitempty"`
	SOM       int    `json:"som"`
	Roll      int    `json:"roll"`
	// LosesTurn: "A failure results in a loss of the turn for the
	// character: he will only act from the following turn onwards." An
	// encounter reads it to skip the character this turn.
	LosesTurn bool `json:"loses_turn"`
}

type arcOrderEntry struct {
	Name       string `json:"name"`
	SOM        int    `json:"som"`
	Empathy    int    `json:"empathy"`
	Perception int    `json:"perception"`
	TieRolls   []int  `json:"tie_rolls,omitempty"`
}

type arcOrderResult struct {
	kit.Outcome
	Order      []arcOrderEntry `json:"order"`
	Waiting    []arcOrderEntry `json:"waiting"`
	Unresolved bool            `json:"unresolved,omitempty"`
}

type arcMoveResult struct {
	kit.Outcome
	Character string  `json:"character,omitempty"`
	BaseMOV   int     `json:"base_mov"`
	Size      int     `json:"size"`
	SizeName  string  `json:"size_name"`
	SizeFac   float64 `json:"size_factor"`
	Control   int     `json:"control"`
	CtrlAdj   int     `json:"control_adj"`
	Effective int     `json:"effective_mov"`
	Burden    string  `json:"burden,omitempty"`
	BurdenFac float64 `json:"burden_factor"`
	MOV       int     `json:"mov"`
	Turns     int     `json:"turns,omitempty"`
	Seconds   int     `json:"seconds,omitempty"`
	Distance  int     `json:"distance,omitempty"`
	// The load, when the Build is known.
	Build           int       `json:"build,omitempty"`
	LOADT           float64   `json:"loadt,omitempty"`
	Limits          []float64 `json:"burden_limits,omitempty"`
	MaxBurden       float64   `json:"max_burden,omitempty"`
	OverloadedLimit float64   `json:"overloaded_limit,omitempty"`
	Load            *float64  `json:"load,omitempty"`
	CanAct          bool      `json:"can_act"`
	// Actions a turn, when an ES is given.
	ES      int `json:"es,omitempty"`
	Actions int `json:"actions_per_turn,omitempty"`
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

func (h *handlers) arcReaction(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc reaction som:6"
	sheet, err := h.Sheet(ctx, req, "arc")
	if err != nil {
		return kit.Response{}, err
	}
	som, err := sheet.Need(req, "som")
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	d := &arcDice{t: t}
	res, err := rules.Reaction(som, d)
	if err != nil {
		return kit.Response{}, arcRulesError(err, d, example)
	}
	result := arcReactionResult{Outcome: kit.Outcome{Total: res.Roll}, Character: sheet.Name(), SOM: som, Roll: res.Roll, LosesTurn: res.LosesTurn}
	result.Succeeded(res.Success, res.Margin)
	if err := h.arcFinish(ctx, req, t, "arc reaction", &result.Outcome, &result, "example: dice:4, one d10"); err != nil {
		return kit.Response{}, err
	}
	somText := fmt.Sprintf("SOM %d", som)
	switch som {
	case rules.MaxSOM:
		somText += " (Exalted)"
	case rules.MinSOM:
		somText += " (Panicked)"
	}
	var verdict string
	switch {
	case res.Success && som == rules.MaxSOM:
		verdict = "success: a SOM of 10 always succeeds; acts normally"
	case res.Success && res.Margin == 0:
		verdict = "success (equal to SOM succeeds): acts normally"
	case res.Success:
		verdict = fmt.Sprintf("success by %d: acts normally", res.Margin)
	case som == rules.MinSOM:
		verdict = "failure: a SOM of 1 succeeds only on a 1; loses the turn, acts from the next one"
	default:
		verdict = fmt.Sprintf("failure by %d: loses the turn, acts from the next one", -res.Margin)
	}
	content := fmt.Sprintf("%d vs %s: %s\n%s reaction check: 1d10 at or under SOM succeeds\n%s\n-# roll %s",
		res.Roll, somText, verdict, arcWho(req, sheet.Name()), t.Breakdown(), result.ID)
	return kit.Response{Content: content, Ephemeral: req.Options.Bool("private"), Result: result}, nil
}

// arcStatAliases are the stats an entry of /arc order may give, with the
// sheet stat each one is.
var arcStatAliases = map[string]string{
	"som": "som", "empathy": "empathy", "emp": "empathy", "perception": "perception", "per": "perception",
}

// arcMaxParticipants bounds who: so one command stays one readable message
// and a handful of sheet look-ups.
const arcMaxParticipants = 30

// arcParticipants reads the who: list of /arc order: entries separated by
// commas or semicolons, each a name with optional stat=value words; stats
// not written come from the sheet of that name.
func (h *handlers) arcParticipants(ctx context.Context, req *kit.Request, text string) ([]rules.Participant, error) {
	const example = `who:"Mira, Goblin som=3 empathy=2 perception=4"`
	var out []rules.Participant
	for entry := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		var nameParts []string
		stats := map[string]int{}
		for _, w := range strings.Fields(entry) {
			k, v, ok := strings.Cut(w, "=")
			if !ok {
				nameParts = append(nameParts, w)
				continue
			}
			stat, known := arcStatAliases[strings.ToLower(k)]
			if !known {
				return nil, kit.Errorf("%q in who: is not som, empathy or perception (example: %s)", w, example)
			}
			n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
			if err != nil {
				return nil, kit.Errorf("%s needs a whole number, not %q (example: %s)", k, v, example)
			}
			stats[stat] = n
		}
		name, err := kit.CleanName("name", strings.Join(nameParts, " "))
		if err != nil {
			return nil, kit.Errorf("every entry of who: starts with a name; %q has none (example: %s)", strings.TrimSpace(entry), example)
		}
		if len(stats) < 3 {
			c, err := h.Characters.Character(ctx, req.GuildID, name)
			switch {
			case errors.Is(err, db.ErrNotFound):
				// Not a sheet: the missing stat is named below.
			case err != nil:
				return nil, fmt.Errorf("arc order: load %s: %w", name, err)
			case c.System != "arc":
				return nil, kit.Errorf("%s is a %s character; /arc order needs arc ones, or write the stats: %s som=5 empathy=3 perception=4", c.Name, c.System, name)
			default:
				name = c.Name
				for _, s := range []string{"som", "empathy", "perception"} {
					if _, given := stats[s]; !given {
						if v, ok := c.Stats[s]; ok {
							stats[s] = v
						}
					}
				}
			}
		}
		for _, s := range []string{"som", "empathy", "perception"} {
			if _, ok := stats[s]; !ok {
				return nil, kit.Errorf("%s needs %s: write it in who: as %s %s=5, or add it to a sheet named %s (example: %s)", name, s, name, s, name, example)
			}
		}
		out = append(out, rules.Participant{Name: name, SOM: stats["som"], Empathy: stats["empathy"], Perception: stats["perception"]})
		if len(out) > arcMaxParticipants {
			return nil, kit.Errorf("who: lists more than %d characters; order a turn's declarations in groups of at most %d", arcMaxParticipants, arcMaxParticipants)
		}
	}
	if len(out) == 0 {
		return nil, kit.Errorf("who: lists nobody (example: %s)", example)
	}
	return out, nil
}

func (h *handlers) arcOrder(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = `/arc order who:"Mira, Goblin som=3 empathy=2 perception=4" surprised:Mira`
	ps, err := h.arcParticipants(ctx, req, req.Options.String("who"))
	if err != nil {
		return kit.Response{}, err
	}
	for name := range strings.FieldsFuncSeq(req.Options.String("surprised"), func(r rune) bool { return r == ',' || r == ';' }) {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(ps, func(p rules.Participant) bool { return strings.EqualFold(p.Name, name) })
		if i < 0 {
			return kit.Response{}, kit.Errorf("surprised: %q is not in who: (example: %s)", name, example)
		}
		ps[i].Unaware = true
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	d := &arcDice{t: t}
	o, err := rules.DeclarationOrder(ps, d)
	if err != nil {
		return kit.Response{}, arcRulesError(err, d, example)
	}
	entry := func(p rules.Participant) arcOrderEntry {
		return arcOrderEntry{Name: p.Name, SOM: p.SOM, Empathy: p.Empathy, Perception: p.Perception, TieRolls: p.TieRolls}
	}
	result := arcOrderResult{Outcome: kit.Outcome{Total: len(o.Declare)}, Order: []arcOrderEntry{}, Waiting: []arcOrderEntry{}, Unresolved: o.Unresolved}
	var names []string
	for _, p := range o.Declare {
		result.Order = append(result.Order, entry(p))
		n := kit.EscapeMarkdown(p.Name)
		if len(p.TieRolls) > 0 {
			n += fmt.Sprintf(" (d10 %s)", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(p.TieRolls)), ", "), "[]"))
		}
		names = append(names, n)
	}
	var waiting []string
	for _, p := range o.Waiting {
		result.Waiting = append(result.Waiting, entry(p))
		waiting = append(waiting, kit.EscapeMarkdown(p.Name))
	}
	if err := h.arcFinish(ctx, req, t, "arc order", &result.Outcome, &result, "a d10 for each character tied on SOM, Empathy and Perception, in the order of who:"); err != nil {
		return kit.Response{}, err
	}
	var b strings.Builder
	if len(names) == 0 {
		b.WriteString("Nobody declares this turn: everyone is surprised or unconscious\n")
	} else {
		fmt.Fprintf(&b, "Declaration order: %s\n", strings.Join(names, " → "))
	}
	b.WriteString("Ascending SOM, then Empathy, then Perception, then 1d10")
	if len(waiting) > 0 {
		fmt.Fprintf(&b, "\nSurprised or unconscious, act from the next turn: %s", strings.Join(waiting, ", "))
	}
	if o.Unresolved {
		b.WriteString("\nSome d10s tied round after round: those characters keep the order of who:")
	}
	if bd := t.Breakdown(); bd != "" {
		b.WriteString("\n" + bd)
	}
	b.WriteString("\n-# roll " + result.ID)
	return kit.Response{Content: b.String(), Result: result}, nil
}

// arcNumber reads a Number option, else the sheet's stat of that name.
func arcNumber(req *kit.Request, s kit.Sheet, name string) (float64, bool) {
	switch v := req.Options[name].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	if v, ok := arcSheetStat(s, name); ok {
		return float64(v), true
	}
	return 0, false
}

func arcKg(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " kg" }

func (h *handlers) arcMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc move control:7 build:6 load:30"
	cfg := h.config()
	sheet, err := h.Sheet(ctx, req, "arc")
	if err != nil {
		return kit.Response{}, err
	}
	control, err := sheet.Need(req, "control")
	if err != nil {
		return kit.Response{}, err
	}
	size, err := h.arcSizeOf(req, sheet, "size", example+" size:small")
	if err != nil {
		return kit.Response{}, err
	}
	// No dice: the Outcome's rolls stay an empty list, as for a roll of none.
	result := arcMoveResult{Outcome: kit.Outcome{Rolls: []kit.RollGroup{}}, Character: sheet.Name(), Control: control, Size: size, SizeName: cfg.SizeName(size), CanAct: true}
	burden := rules.Light
	var lines []string

	build, hasBuild := sheet.Stat(req, "build")
	weight, hasWeight := arcNumber(req, sheet, "load")
	clothing, _ := arcNumber(req, sheet, "clothing")
	if hasWeight && !hasBuild {
		return kit.Response{}, kit.Errorf("load: needs the Build to weigh it against (LOADT = Build x 3 kg): add build:<score> (example: %s)", example)
	}
	if hasBuild {
		l, err := cfg.Load(rules.LoadInput{Build: build, Size: size, Weight: weight, Clothing: clothing})
		if err != nil {
			return kit.Response{}, arcRulesError(err, nil, example)
		}
		result.Build, result.LOADT, result.Limits, result.MaxBurden, result.OverloadedLimit = build, l.LOADT, l.Limits, l.MaxBurden, l.OverloadedLimit
		var levels []string
		for i, lim := range l.Limits {
			levels = append(levels, fmt.Sprintf("%s up to %s", (rules.Light+rules.Burden(i)).String(), arcKg(lim)))
		}
		if len(levels) == 0 {
			levels = append(levels, "clothing only")
		}
		line := fmt.Sprintf("Build %d: LOADT %s · %s · overloaded up to %s", build, arcKg(l.LOADT), strings.Join(levels, ", "), arcKg(l.OverloadedLimit))
		if hasWeight {
			result.Load = &weight
			result.CanAct = l.CanAct
			burden = l.Status
			line += fmt.Sprintf("\nBearing %s: **%s**", arcKg(weight), l.Status)
			if !l.CanAct {
				line += ": cannot act, move or perform any action"
			}
		}
		lines = append(lines, line)
	}
	m, err := cfg.Movement(rules.MoveInput{Base: sheet.Or(req, "mov", 0), Size: size, Control: control, Burden: burden})
	if err != nil {
		return kit.Response{}, arcRulesError(err, nil, example)
	}
	result.BaseMOV, result.SizeFac, result.CtrlAdj, result.Effective = m.Base, m.SizeFactor, m.ControlAdj, m.Effective
	result.Burden, result.BurdenFac, result.MOV = burden.String(), m.BurdenFactor, m.MOV
	result.Total = m.MOV
	if !hasWeight {
		result.Burden = "" // no weight given: the MOV is before any burden
	}
	if turns, ok := req.Options.Int("turns"); ok {
		result.Turns, result.Seconds, result.Distance = int(turns), int(turns)*rules.TurnSeconds, int(turns)*m.MOV
		lines = append(lines, fmt.Sprintf("In %s (%d s): %d m", arcPlural(int(turns), "turn"), result.Seconds, result.Distance))
	}
	if _, onSheet := arcSheetStat(sheet, "es"); onSheet || req.Options.Has("es") {
		es, err := arcScore(req, sheet, "es", "es", example+" es:5")
		if err != nil {
			return kit.Response{}, err
		}
		n, err := cfg.ActionsPerTurn(es)
		if err != nil {
			return kit.Response{}, arcRulesError(err, nil, example+" es:5")
		}
		result.ES, result.Actions = es, n
		lines = append(lines, fmt.Sprintf("ES %d: %s a turn", es, arcPlural(n, "action")))
	}

	first := fmt.Sprintf("MOV %d m/turn", m.MOV)
	var why []string
	why = append(why, fmt.Sprintf("base %d", m.Base))
	if m.SizeFactor != 1 {
		why = append(why, fmt.Sprintf("%s ×%s = %s", cfg.SizeName(size), strconv.FormatFloat(m.SizeFactor, 'f', -1, 64), strconv.FormatFloat(m.Sized, 'f', -1, 64)))
	}
	why = append(why, fmt.Sprintf("Control %d %+d", control, m.ControlAdj))
	switch {
	case burden == rules.Immobile:
		why = append(why, "too heavy to move")
	case result.Burden != "":
		why = append(why, fmt.Sprintf("%s burden ×%s", burden, strconv.FormatFloat(m.BurdenFactor, 'f', -1, 64)))
	}
	first += " (" + strings.Join(why, ", ") + ")"
	who := kit.DisplayName(req.User)
	if sheet.Name() != "" {
		who = kit.EscapeMarkdown(sheet.Name())
	}
	content := first + "\n**" + who + "**, one turn = 6 s"
	if len(lines) > 0 {
		content += "\n" + strings.Join(lines, "\n")
	}
	return kit.Response{Content: content, Ephemeral: req.Options.Bool("private"), Result: result}, nil
}

// arcSuggestThresholds offers the named thresholds with their values.
func (h *handlers) arcSuggestThresholds(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.config()
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	for _, n := range cfg.ThresholdNames() {
		if strings.HasPrefix(n, strings.ReplaceAll(typed, " ", "_")) {
			choices = append(choices, kit.Choice{Name: fmt.Sprintf("%s (%d)", strings.ReplaceAll(n, "_", " "), cfg.Thresholds[n]), Value: n})
		}
	}
	return kit.Response{Choices: choices}, nil
}

// arcSuggestSizes offers the size names with their steps from medium.
func (h *handlers) arcSuggestSizes(ctx context.Context, req *kit.Request) (kit.Response, error) {
	cfg := h.config()
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	for i, n := range cfg.SizeNames {
		if strings.HasPrefix(strings.ToLower(n), typed) {
			choices = append(choices, kit.Choice{Name: fmt.Sprintf("%s (%+d)", n, i+rules.MinSize), Value: n})
		}
	}
	return kit.Response{Choices: choices}, nil
}

// arcSuggestStats offers the stats of the sheet the option reads from (the
// opponent's for target_ options), with their values.
func (h *handlers) arcSuggestStats(ctx context.Context, req *kit.Request) (kit.Response, error) {
	typed := strings.ToLower(strings.TrimSpace(req.Options.String(req.Focused)))
	var choices []kit.Choice
	if _, err := strconv.Atoi(typed); err == nil {
		choices = append(choices, kit.Choice{Name: typed, Value: typed})
	}
	name := req.Options.String("character")
	if strings.HasPrefix(req.Focused, "target_") {
		name = req.Options.String("target")
	}
	if name == "" {
		return kit.Response{Choices: choices}, nil
	}
	c, err := h.Characters.Character(ctx, req.GuildID, strings.TrimSpace(name))
	if errors.Is(err, db.ErrNotFound) {
		return kit.Response{Choices: choices}, nil
	}
	if err != nil {
		return kit.Response{}, fmt.Errorf("suggest stats of %s: %w", name, err)
	}
	for _, k := range slices.Sorted(maps.Keys(c.Stats)) {
		if strings.HasPrefix(k, typed) {
			choices = append(choices, kit.Choice{Name: fmt.Sprintf("%s (%d)", k, c.Stats[k]), Value: k})
		}
	}
	return kit.Response{Choices: choices}, nil
}
