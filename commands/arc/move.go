package arc

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/arc"
)

// moveResult is the console's `result` of /arc move.
type moveResult struct {
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

// moveInput is what /arc move reads.
type moveInput struct {
	control, size, base int
	// The Build, when given, and the weight borne (with the clothing
	// part of it), which needs the Build.
	build               int
	hasBuild, hasWeight bool
	weight, clothing    float64
	// turns, when not 0, asks the distance covered in that many turns.
	turns int
	// es is set when an ES is given, as es: or on the sheet: the reply
	// then counts the actions a turn.
	es bool
}

// movement is what /arc move finds: the `result`, and the rules' load and
// movement that the reply spells out.
type movement struct {
	result moveResult
	load   rules.Load // when the Build is known
	mov    rules.Movement
	burden rules.Burden
}

// move answers /arc move: the MOV a turn by size, Control and burden, the
// LOADT, and the actions a turn. It rolls no dice.
func (h *handlers) move(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/arc move control:7 build:6 load:30"
	c, cfg, err := pipeline.Open(ctx, h.Env, req)
	if err != nil {
		return kit.Response{}, err
	}
	in := readMove(c, cfg, example)
	if err := c.Err(); err != nil {
		return kit.Response{}, err
	}
	m, err := measure(c, cfg, in, example)
	if err != nil {
		return kit.Response{}, err
	}
	return c.Reply("", m.result, moveLines(c, cfg, in, m)...), nil
}

// readMove reads the options of /arc move but its ES: see measure.
func readMove(c *kit.Call, cfg rules.Config, example string) moveInput {
	in := moveInput{control: c.Need("control")}
	in.size = readSize(c, cfg, c.Sheet, "size", example+" size:small")
	in.build, in.hasBuild = c.Stat("build")
	in.weight, in.hasWeight = number(c, "load")
	in.clothing, _ = number(c, "clothing")
	if in.hasWeight && !in.hasBuild {
		c.Failf("load: needs the Build to weigh it against (LOADT = Build x 3 kg): add build:<score> (example: %s)", example)
	}
	in.base = c.Or("mov", 0)
	if turns, ok := c.Req.Options.Int("turns"); ok {
		in.turns = int(turns) // at least 1 when given
	}
	_, onSheet := sheetStat(c.Sheet, "es")
	in.es = onSheet || c.Req.Options.Has("es")
	return in
}

// measure applies the rules to in: the load, when the Build is known;
// the movement under the burden the load sets; the distance; and the
// actions a turn. The ES is read here, last, as /arc move always has: a
// mistake in the load or the movement is named before one in es:.
func measure(c *kit.Call, cfg rules.Config, in moveInput, example string) (movement, error) {
	// No dice: the Outcome's rolls stay an empty list, as for a roll of none.
	m := movement{burden: rules.Light, result: moveResult{Outcome: kit.Outcome{Rolls: []kit.RollGroup{}},
		Character: c.Sheet.Name(), Control: in.control, Size: in.size, SizeName: cfg.SizeName(in.size), CanAct: true}}
	r := &m.result
	if in.hasBuild {
		if err := m.weigh(cfg, in); err != nil {
			return m, c.RulesError(err, example)
		}
	}
	mov, err := cfg.Movement(rules.MoveInput{Base: in.base, Size: in.size, Control: in.control, Burden: m.burden})
	if err != nil {
		return m, c.RulesError(err, example)
	}
	m.mov = mov
	r.BaseMOV, r.SizeFac, r.CtrlAdj, r.Effective = mov.Base, mov.SizeFactor, mov.ControlAdj, mov.Effective
	r.Burden, r.BurdenFac, r.MOV = m.burden.String(), mov.BurdenFactor, mov.MOV
	r.Total = mov.MOV
	if !in.hasWeight {
		r.Burden = "" // no weight given: the MOV is before any burden
	}
	if in.turns > 0 {
		r.Turns, r.Seconds, r.Distance = in.turns, in.turns*rules.TurnSeconds, in.turns*mov.MOV
	}
	if in.es {
		return m, m.count(c, cfg, example+" es:5")
	}
	return m, nil
}

// count reads the ES and finds the actions it allows a turn.
func (m *movement) count(c *kit.Call, cfg rules.Config, example string) error {
	es, err := score(c.Req, c.Sheet, "es", "es", example)
	if err != nil {
		return err
	}
	n, err := cfg.ActionsPerTurn(es)
	if err != nil {
		return c.RulesError(err, example)
	}
	m.result.ES, m.result.Actions = es, n
	return nil
}

// weigh finds the load of in's Build and, when a weight is given, the
// burden it sets.
func (m *movement) weigh(cfg rules.Config, in moveInput) error {
	l, err := cfg.Load(rules.LoadInput{Build: in.build, Size: in.size, Weight: in.weight, Clothing: in.clothing})
	if err != nil {
		return err
	}
	m.load = l
	r := &m.result
	r.Build, r.LOADT, r.Limits, r.MaxBurden, r.OverloadedLimit = in.build, l.LOADT, l.Limits, l.MaxBurden, l.OverloadedLimit
	if in.hasWeight {
		r.Load = &in.weight
		r.CanAct = l.CanAct
		m.burden = l.Status
	}
	return nil
}

// moveLines say what /arc move found: the MOV and why, whose it is, then
// the load, the distance and the actions a turn when asked.
func moveLines(c *kit.Call, cfg rules.Config, in moveInput, m movement) []string {
	lines := []string{movLine(cfg, in, m), "**" + c.Who() + "**, one turn = 6 s"}
	if in.hasBuild {
		lines = append(lines, loadLine(in, m.load))
	}
	if in.turns > 0 {
		lines = append(lines, fmt.Sprintf("In %s (%d s): %d m", kit.Plural(in.turns, "turn"), m.result.Seconds, m.result.Distance))
	}
	if in.es {
		lines = append(lines, fmt.Sprintf("ES %d: %s a turn", m.result.ES, kit.Plural(m.result.Actions, "action")))
	}
	return lines
}

// movLine is the MOV, with how the base became it: size, Control, burden.
func movLine(cfg rules.Config, in moveInput, m movement) string {
	mov := m.mov
	why := []string{fmt.Sprintf("base %d", mov.Base)}
	if mov.SizeFactor != 1 {
		why = append(why, fmt.Sprintf("%s ×%s = %s", cfg.SizeName(in.size), decimal(mov.SizeFactor), decimal(mov.Sized)))
	}
	why = append(why, fmt.Sprintf("Control %d %+d", in.control, mov.ControlAdj))
	switch {
	case m.burden == rules.Immobile:
		why = append(why, "too heavy to move")
	case m.result.Burden != "":
		why = append(why, fmt.Sprintf("%s burden ×%s", m.burden, decimal(mov.BurdenFactor)))
	}
	return fmt.Sprintf("MOV %d m/turn (%s)", mov.MOV, strings.Join(why, ", "))
}

// loadLine is the LOADT of in's Build with its burden limits, and the
// burden of the weight borne when given.
func loadLine(in moveInput, l rules.Load) string {
	var levels []string
	for i, lim := range l.Limits {
		levels = append(levels, fmt.Sprintf("%s up to %s", (rules.Light+rules.Burden(i)).String(), kg(lim)))
	}
	if len(levels) == 0 {
		levels = append(levels, "clothing only")
	}
	line := fmt.Sprintf("Build %d: LOADT %s · %s · overloaded up to %s", in.build, kg(l.LOADT), strings.Join(levels, ", "), kg(l.OverloadedLimit))
	if in.hasWeight {
		line += fmt.Sprintf("\nBearing %s: **%s**", kg(in.weight), l.Status)
		if !l.CanAct {
			line += ": cannot act, move or perform any action"
		}
	}
	return line
}

// number reads a Number option, else the sheet's stat of that name.
func number(c *kit.Call, name string) (float64, bool) {
	switch v := c.Req.Options[name].(type) {
	case float64:
		return v, true
	case int64:
		return float64(v), true
	}
	if v, ok := sheetStat(c.Sheet, name); ok {
		return float64(v), true
	}
	return 0, false
}

// decimal writes v as briefly as it reads: 1.5, 0.75, 2.
func decimal(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// kg writes a weight in kg.
func kg(v float64) string { return decimal(v) + " kg" }
