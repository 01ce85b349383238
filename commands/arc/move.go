package arc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

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
