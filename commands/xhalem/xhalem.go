package xhalem

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	rules "github.com/tablehand/tablehand/rules/xhalem"
)

// /xhalem: the rules of seed xhalem (rules/xhalem; docs/rules.md lists
// every rule and the subcommand that applies it).

func xhChoices(values ...string) []kit.Choice {
	out := make([]kit.Choice, len(values))
	for i, v := range values {
		out[i] = kit.Choice{Name: v, Value: v}
	}
	return out
}

var (
	xhKind = func(required bool) kit.Option {
		return kit.Option{Type: kit.String, Name: "kind", Description: "Machine (mech, ship) or creature", Required: required, Choices: xhChoices("machine", "creature")}
	}
	xhModes    = xhChoices("normal", "advantage", "disadvantage", "detriment")
	xhMode     = kit.Option{Type: kit.String, Name: "mode", Description: "Architect's call: advantage 2d20 high, disadvantage 2d20 low, detriment 4d20 low", Choices: xhModes}
	xhTMode    = kit.Option{Type: kit.String, Name: "target_mode", Description: "Architect's call for the target's evasion roll", Choices: xhModes}
	xhBonus    = kit.Option{Type: kit.Integer, Name: "bonus", Description: "Other bonuses and penalties to your roll"}
	xhEvasion  = kit.Option{Type: kit.Integer, Name: "evasion", Description: "What the target adds to its 1d20 evasion roll", Required: true}
	xhSystems  = kit.Option{Type: kit.Integer, Name: "systems", Description: "Your Systems (machine engagement)"}
	xhAgility  = kit.Option{Type: kit.Integer, Name: "agility", Description: "Your Agility (creature engagement)"}
	xhHull     = kit.Option{Type: kit.Integer, Name: "hull", Description: "Your Hull (machine)"}
	xhStrength = kit.Option{Type: kit.Integer, Name: "strength", Description: "Your Strength (creature)"}
	xhWater    = kit.Option{Type: kit.String, Name: "underwater", Description: "Underwater: disadvantage unless adapted to it", Choices: xhChoices("no", "yes", "adapted")}
	xhSizes    = xhChoices("small", "medium", "large", "extra_large", "giant", "gargantuan", "behemoth")
	xhSize     = kit.Option{Type: kit.String, Name: "size", Description: "Your size", Choices: xhSizes}
	xhTSize    = kit.Option{Type: kit.String, Name: "target_size", Description: "The target's size: at most one larger than yours", Choices: xhSizes}
	xhHelpless = kit.Option{Type: kit.Boolean, Name: "helpless", Description: "The target is incapacitated or immobilized: automatic"}
	xhPrivate  = kit.Option{Type: kit.Boolean, Name: "private", Description: "Only you see the result"}
)

var xhalemCommand = kit.Command{
	Name:        "xhalem",
	Description: "Xha'lem: mechs and creatures in combat",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "initiative", Description: "Initiative: 1d20 + Engine (machine) or Evasion (creature)", Options: []kit.Option{
			xhKind(true),
			{Type: kit.Integer, Name: "engine", Description: "Your Engine (machine)"},
			{Type: kit.Integer, Name: "evasion", Description: "Your Evasion (creature)"},
			xhBonus,
			{Type: kit.String, Name: "side", Description: "Who controls you (for ties)", Choices: xhChoices("player", "architect")},
			{Type: kit.Integer, Name: "opponent", Description: "Another combatant's Initiative, to see who goes first"},
			{Type: kit.Integer, Name: "opponent_score", Description: "Its Engine or Evasion (breaks a tie between players)"},
			{Type: kit.String, Name: "opponent_side", Description: "Who controls it", Choices: xhChoices("player", "architect")},
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "engage", Description: "Engage (attack): 1d20 + Systems or Agility against the target's evasion roll", Options: []kit.Option{
			xhKind(true), xhEvasion, xhSystems, xhAgility, xhBonus, xhMode, xhTMode,
			{Type: kit.String, Name: "target", Description: "Cloaked: detriment; concealed: disadvantage; all but visible evade with advantage",
				Choices: xhChoices("visible", "cloaked", "concealed", "partial", "revealed")},
			{Type: kit.String, Name: "stealth", Description: "You are cloaked or concealed: advantage; unaware target does not evade", Choices: xhChoices("none", "hidden", "unaware")},
			{Type: kit.String, Name: "range", Description: "Out: disadvantage, half damage (hidden target: fails); blocked: fails", Choices: xhChoices("in", "out", "blocked")},
			{Type: kit.String, Name: "position", Description: "Where you stand around the target, for flanking", Choices: xhChoices("front", "back", "left", "right", "above", "below")},
			{Type: kit.String, Name: "allies", Description: "Allies in melee with it, e.g. \"back,left\"", MaxLength: 60},
			{Type: kit.Boolean, Name: "assisted", Description: "An ally took the Assist action: advantage"},
			{Type: kit.String, Name: "opportunity", Description: "Opportunity attack: provoked (advantage) or forced (disadvantage)", Choices: xhChoices("none", "provoked", "forced")},
			xhWater, kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "damage", Description: "Damage of a hit: the weapon's dice + Hull, Reactor or Strength", Options: []kit.Option{
			xhKind(true),
			{Type: kit.String, Name: "weapon", Description: "What hit: energy and conventional are ranged", Required: true, Choices: xhChoices("melee", "unarmed", "thrown", "energy", "conventional")},
			{Type: kit.String, Name: "roll", Description: "The weapon's damage dice, e.g. 2d8", MaxLength: 100},
			xhHull,
			{Type: kit.Integer, Name: "reactor", Description: "Your Reactor (machine, energy ranged)"},
			xhStrength, xhBonus,
			{Type: kit.Boolean, Name: "out_of_range", Description: "A ranged hit beyond the weapon's range: halved"},
			{Type: kit.String, Name: "type", Description: "Damage type, for water", Choices: xhChoices("other", "fire", "electrical")},
			{Type: kit.String, Name: "immersion", Description: "The target in water: full (fire immune), partial or full (electrical x2)", Choices: xhChoices("none", "partial", "full")},
			{Type: kit.Boolean, Name: "inside_mech", Description: "The target is a creature inside a mech"},
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "grapple", Description: "Grapple: 1d20 + Hull or Strength against the target's evasion roll", Options: []kit.Option{
			xhKind(true), xhEvasion, xhHull, xhStrength, xhBonus, xhMode, xhTMode, xhWater, xhSize, xhTSize, xhHelpless,
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "escape", Description: "Break a grapple: 1d20 + Hull or Strength, equal or better frees you", Options: []kit.Option{
			xhKind(true),
			{Type: kit.Integer, Name: "grappler", Description: "The grappler's Hull or Strength", Required: true},
			xhHull, xhStrength, xhBonus, xhMode,
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "shove", Description: "Shove: engage, then Hull or Strength against the target's: knock down or push", Options: []kit.Option{
			xhKind(true), xhEvasion,
			{Type: kit.Integer, Name: "resist", Description: "The target's Hull or Strength", Required: true},
			xhSystems, xhAgility, xhHull, xhStrength, xhBonus,
			{Type: kit.String, Name: "effect", Description: "On success (default push)", Choices: xhChoices("push", "knock_down")},
			xhMode, xhTMode, xhWater, xhSize, xhTSize,
			{Type: kit.Boolean, Name: "helpless", Description: "The target is incapacitated: automatic"},
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "speed", Description: "Movement: hexes or feet, dash or thrust, reach, space speed", Options: []kit.Option{
			xhKind(false),
			{Type: kit.Integer, Name: "engine", Description: "Your Engine (space speed)"},
			{Type: kit.Integer, Name: "reactor", Description: "Your Reactor (space speed)"},
			xhSize,
			{Type: kit.Integer, Name: "speed", Description: "Your base speed (creature race; default mech 25 or 35)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "bonus", Description: "Benefits and penalties to your speed"},
			{Type: kit.Boolean, Name: "dash", Description: "Dash or thrust: double your speed"},
			{Type: kit.Boolean, Name: "difficult", Description: "Through difficult terrain, on the ground or in the air"},
			{Type: kit.Integer, Name: "mount", Description: "Your mount's speed: it replaces yours", MinValue: kit.Float(0)},
			{Type: kit.String, Name: "drag", Description: "Size of a grappled combatant you move: halves speed", Choices: xhSizes},
			{Type: kit.Integer, Name: "moved", Description: "Already moved this turn (any speed)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "rounds", Description: "How far in this many 10-second rounds", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
		{Type: kit.SubCommand, Name: "check", Description: "Check (scan, Stealth, mount, ...): 1d20 + stat must beat the CR", Options: []kit.Option{
			{Type: kit.String, Name: "stat", Description: "The stat, e.g. hull, strength, scanners, stealth", Required: true, MaxLength: kit.MaxStatName},
			{Type: kit.Integer, Name: "cr", Description: "The number to beat: a CR, or an opposing total", Required: true},
			{Type: kit.Integer, Name: "score", Description: "The stat's value (default: from the character)"},
			xhBonus, xhMode,
			kit.DiceOption, kit.CharacterOption, xhPrivate,
		}},
	},
}

// registerXhalem adds /xhalem, the rules of seed xhalem (see rules/xhalem).
func (h *handlers) registerXhalem(r *kit.Router) {
	r.Define(xhalemCommand)
	for _, sub := range []struct {
		name string
		h    kit.Handler
	}{
		{"initiative", h.xhalemInitiative},
		{"engage", h.xhalemEngage},
		{"damage", h.xhalemDamage},
		{"grapple", h.xhalemGrapple},
		{"escape", h.xhalemEscape},
		{"shove", h.xhalemShove},
		{"speed", h.xhalemSpeed},
		{"check", h.xhalemCheck},
	} {
		r.Route("xhalem/"+sub.name, sub.h, false)
		r.RouteAutocomplete("xhalem/"+sub.name, "character", h.SuggestCharacters)
	}
}

// xhIn gathers what every /xhalem subcommand reads first: the character
// sheet, and the kind when the subcommand has one.
type xhIn struct {
	req   *kit.Request
	sheet kit.Sheet
	kind  rules.Kind
	cfg   rules.Config
}

func (h *handlers) xhalemIn(ctx context.Context, req *kit.Request, example string) (xhIn, error) {
	in := xhIn{req: req}
	var err error
	if in.cfg, err = h.xhalemConfig(); err != nil {
		return xhIn{}, err
	}
	if in.sheet, err = h.Sheet(ctx, req, "xhalem"); err != nil {
		return xhIn{}, err
	}
	// Numbers as large as a sheet may hold, so no sum or product of the
	// rules can overflow.
	for name, v := range req.Options {
		if n, ok := v.(int64); ok && (n > kit.MaxStatAbs || n < -kit.MaxStatAbs) {
			return xhIn{}, kit.Errorf("%s:%d is out of range: numbers go from -%d to %d (example: %s)", name, n, kit.MaxStatAbs, kit.MaxStatAbs, example)
		}
	}
	if k := req.Options.String("kind"); k != "" {
		if in.kind, err = rules.ParseKind(k); err != nil {
			return xhIn{}, kit.Errorf("%v (example: %s)", err, example)
		}
	}
	return in, nil
}

// xhalemConfig is the campaign's [xhalem] configuration; one that the
// rules cannot use is the operator's mistake, not the user's.
func (h *handlers) xhalemConfig() (rules.Config, error) {
	c := h.config()
	if err := c.Validate(); err != nil {
		return rules.Config{}, err
	}
	return c, nil
}

// who names the actor: the character when one is given, else the user.
func (in xhIn) who() string {
	if n := in.sheet.Name(); n != "" {
		return "**" + kit.EscapeMarkdown(n) + "**"
	}
	return "**" + kit.DisplayName(in.req.User) + "**"
}

// need is Sheet.Need.
func (in xhIn) need(name string) (int, error) { return in.sheet.Need(in.req, name) }

// opt returns an integer option that is never read from the sheet (it is
// the target's, not the actor's); required options are checked by the
// router's parser and by Discord, so a missing one is 0 only in tests.
func (in xhIn) opt(name string) int {
	v, _ := in.req.Options.Int(name)
	return int(v)
}

// mode reads a mode option.
func (in xhIn) mode(name, example string) (rules.Mode, error) {
	m, err := rules.ParseMode(in.req.Options.String(name))
	if err != nil && name != "mode" {
		return 0, kit.Errorf("%s: %v (example: %s)", name, err, example)
	}
	if err != nil {
		return 0, kit.Errorf("%v (example: %s)", err, example)
	}
	return m, nil
}

// modes reads the roller's mode: and the target's target_mode:, as an
// opposed roll takes them.
func (in xhIn) modes(example string) (mode, target rules.Mode, err error) {
	if mode, err = in.mode("mode", example); err != nil {
		return 0, 0, err
	}
	target, err = in.mode("target_mode", example)
	return mode, target, err
}

// xhParsed reads a string option with parse, turning its error into the
// user's mistake with an example.
func xhParsed[T any](in xhIn, name, example string, parse func(string) (T, error)) (T, error) {
	v, err := parse(strings.ToLower(strings.TrimSpace(in.req.Options.String(name))))
	if err != nil {
		var zero T
		return zero, kit.Errorf("%v (example: %s)", err, example)
	}
	return v, nil
}

// xhRulesError turns an error of rules/xhalem into what the user sees: a
// mistake in the dice is already a *UserError; any other error the rules
// return is an input they cannot work with, named with an example.
func xhRulesError(err error, example string) error {
	if _, ok := kit.AsUserError(err); ok {
		return err
	}
	return &kit.UserError{Msg: fmt.Sprintf("%v (example: %s)", err, example), Err: err}
}

// xhalemReply assembles a /xhalem answer: the outcome line, notes, the dice and
// the roll ID.
func xhalemReply(req *kit.Request, t *kit.Tray, id string, result any, lines ...string) kit.Response {
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(l + "\n")
		}
	}
	if bd := t.Breakdown(); bd != "" {
		b.WriteString(bd + "\n")
	}
	b.WriteString("-# roll " + id)
	return kit.Response{Content: b.String(), Ephemeral: req.Options.Bool("private"), Result: result}
}

// xhModeNote says how a roll was made and why, or "" for a plain roll:
// "Engagement with detriment (cloaked target)", or, when sources pull both
// ways, "Engagement with disadvantage (cloaked target: detriment,
// flanking: advantage)".
func xhModeNote(what string, m rules.Mode, why []rules.Source) string {
	if m == rules.Normal && len(why) == 0 {
		return ""
	}
	same := true
	for _, s := range why {
		same = same && s.Mode == m
	}
	reasons := make([]string, len(why))
	for i, s := range why {
		reasons[i] = s.Why
		if !same {
			reasons[i] += ": " + s.Mode.String()
		}
	}
	note := fmt.Sprintf("%s with %s", what, m)
	if m == rules.Normal {
		note = what + " with one die, the modes cancelling"
	}
	if len(reasons) > 0 {
		note += " (" + strings.Join(reasons, ", ") + ")"
	}
	return note
}

func xhSigned(n int) string {
	if n >= 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// xhKm writes a distance with thousands separators: 60,000 km.
func xhKm(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s + " km"
}

// xhVersus renders a compared engagement: "17 vs 12: hit by 5".
func xhVersus(e rules.EngageResult, hit, miss string) string {
	against := strconv.Itoa(e.EvasionTo)
	if e.Evasion == nil {
		against += " (base Evasion: the target is unaware)"
	}
	switch {
	case e.Automatic == rules.AutoNatural1:
		return "natural 1: automatic " + miss
	case e.Automatic == rules.AutoNatural20:
		return "natural 20: automatic " + hit
	case e.Automatic == rules.AutoHelpless:
		return "the target is incapacitated or immobilized: " + hit + " automatically"
	case e.Automatic == rules.AutoOutOfRange:
		return fmt.Sprintf("%d, but the target is out of range: the engagement fails and you lose your turn", e.Engagement.Total)
	case e.Automatic == rules.AutoBlocked:
		return fmt.Sprintf("%d, but the target's concealment protects it: the engagement fails and you lose your turn", e.Engagement.Total)
	case e.Margin > 0:
		return fmt.Sprintf("%d vs %s: %s by %d", e.Engagement.Total, against, hit, e.Margin)
	case e.Margin == 0:
		return fmt.Sprintf("%d vs %s: %s (a tie goes to the defender)", e.Engagement.Total, against, miss)
	}
	return fmt.Sprintf("%d vs %s: %s by %d", e.Engagement.Total, against, miss, -e.Margin)
}

// xhalemEngagement is the part of a result that an engagement roll fills.
type xhalemEngagement struct {
	Kind       rules.Kind `json:"kind"`
	Stat       string     `json:"stat,omitempty"`
	Score      int        `json:"score"`
	Natural    int        `json:"natural,omitempty"`
	Mode       rules.Mode `json:"mode"`
	TargetMode rules.Mode `json:"target_mode"`
	Evasion    *int       `json:"evasion,omitempty"` // the total the engagement had to beat
	Automatic  string     `json:"automatic,omitempty"`
}

func xhEngagementOf(kind rules.Kind, stat string, score int, e rules.EngageResult) xhalemEngagement {
	out := xhalemEngagement{Kind: kind, Stat: stat, Score: score, Natural: e.Engagement.Natural, Mode: e.Mode, TargetMode: e.TargetMode, Automatic: e.Automatic}
	if e.Compared {
		v := e.EvasionTo
		out.Evasion = &v
	}
	return out
}

// xhEngaged fills an Outcome from an engagement: success is the hit, margin
// only when the totals were compared.
func xhEngaged(o *kit.Outcome, e rules.EngageResult) {
	o.Total = e.Engagement.Total
	if e.Compared {
		o.Succeeded(e.Hit, e.Margin)
		return
	}
	hit := e.Hit
	o.Success = &hit
}

type xhalemInitiativeResult struct {
	kit.Outcome
	Kind     rules.Kind `json:"kind"`
	Stat     string     `json:"stat"`
	Score    int        `json:"score"`
	Natural  int        `json:"natural"`
	Opponent *int       `json:"opponent,omitempty"`
	First    string     `json:"first,omitempty"` // you, opponent, or "" when a tie is left open
	Tie      rules.Tie  `json:"tie,omitempty"`
}

func (h *handlers) xhalemInitiative(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem initiative kind:machine engine:3"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	stat := rules.InitiativeStat(in.kind)
	score, err := in.need(stat)
	if err != nil {
		return kit.Response{}, err
	}
	side, err := xhParsed(in, "side", ex+" side:architect", rules.ParseSide)
	if err != nil {
		return kit.Response{}, err
	}
	oside, err := xhParsed(in, "opponent_side", ex+" opponent:14 opponent_side:architect", rules.ParseSide)
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	roll, err := rules.RollInitiative(rules.InitiativeInput{Kind: in.kind, Score: score, Bonus: in.opt("bonus")}, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemInitiativeResult{Outcome: kit.Outcome{Total: roll.Total}, Kind: in.kind, Stat: stat, Score: score, Natural: roll.Natural}
	line := fmt.Sprintf("%s rolls Initiative: %d", in.who(), roll.Total)
	if req.Options.Has("opponent") {
		opp := in.opt("opponent")
		res.Opponent = &opp
		first, tie := rules.Before(
			rules.Combatant{Total: roll.Total, Score: score, Side: side},
			rules.Combatant{Total: opp, Score: in.opt("opponent_score"), Side: oside})
		res.Tie = tie
		margin := roll.Total - opp
		switch first {
		case 1:
			res.First = "you"
			res.Succeeded(true, margin)
		case -1:
			res.First = "opponent"
			res.Succeeded(false, margin)
		}
		switch {
		case tie == rules.TieArchitect:
			line += fmt.Sprintf(" vs %d: a tie among the Architect's combatants: the Architect decides the order", opp)
		case tie == rules.TieReroll && side != oside:
			line += fmt.Sprintf(" vs %d: a tie between the Architect and a player: both reroll", opp)
		case tie == rules.TieReroll:
			line += fmt.Sprintf(" vs %d: a tie, and equal scores: both players reroll", opp)
		case tie == rules.TieScore && first == 1:
			line += fmt.Sprintf(" vs %d: a tie, your higher %s goes first", opp, stat)
		case tie == rules.TieScore:
			line += fmt.Sprintf(" vs %d: a tie, their higher score goes first", opp)
		case first == 1:
			line += fmt.Sprintf(" vs %d: you go first, by %d", opp, margin)
		default:
			line += fmt.Sprintf(" vs %d: they go first, by %d", opp, -margin)
		}
	}
	if err := h.Finish(ctx, req, t, "xhalem initiative", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line), nil
}

type xhalemEngageResult struct {
	kit.Outcome
	xhalemEngagement
	Flanking   bool `json:"flanking"`
	HalfDamage bool `json:"half_damage"`
	GivesAway  bool `json:"gives_away_position"`
}

func (h *handlers) xhalemEngage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem engage kind:machine evasion:2 systems:3 target:cloaked"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	stat := rules.EngageStat(in.kind)
	score, err := in.need(stat)
	if err != nil {
		return kit.Response{}, err
	}
	e := rules.EngageInput{Kind: in.kind, Score: score, Bonus: in.opt("bonus"), Evasion: in.opt("evasion"), Assisted: req.Options.Bool("assisted")}
	if e.Mode, e.TargetMode, err = in.modes(ex); err != nil {
		return kit.Response{}, err
	}
	if e.Target, err = xhParsed(in, "target", ex, rules.ParseTarget); err != nil {
		return kit.Response{}, err
	}
	if e.Stealth, err = xhParsed(in, "stealth", ex, rules.ParseStealth); err != nil {
		return kit.Response{}, err
	}
	if e.Range, err = xhParsed(in, "range", ex, rules.ParseRange); err != nil {
		return kit.Response{}, err
	}
	if e.Opportunity, err = xhParsed(in, "opportunity", ex, rules.ParseOpportunity); err != nil {
		return kit.Response{}, err
	}
	if e.Water, err = xhParsed(in, "underwater", ex, rules.ParseWater); err != nil {
		return kit.Response{}, err
	}
	if req.Options.Has("position") {
		if e.Position, err = xhParsed(in, "position", ex+" position:front allies:back", rules.ParsePosition); err != nil {
			return kit.Response{}, err
		}
	}
	if e.Allies, err = xhParsed(in, "allies", ex+" position:front allies:back", rules.ParsePositions); err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	r, err := rules.Engage(e, in.cfg, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemEngageResult{xhalemEngagement: xhEngagementOf(in.kind, stat, score, r), Flanking: r.Flanking, HalfDamage: r.HalfDamage, GivesAway: r.GivesAway}
	xhEngaged(&res.Outcome, r)
	line := fmt.Sprintf("%s engages: %s", in.who(), xhVersus(r, "hit", "miss"))
	if r.HalfDamage {
		line += "; out of range: halve the damage (/xhalem damage out_of_range:true)"
	}
	var notes []string
	notes = append(notes, xhModeNote("Engagement", r.Mode, r.Sources))
	if r.Evasion != nil {
		notes = append(notes, xhModeNote("evasion", r.TargetMode, r.TargetWhy))
	}
	if r.GivesAway {
		notes = append(notes, "you give away your position")
	}
	if err := h.Finish(ctx, req, t, "xhalem engage", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line, xhJoinNotes(notes)), nil
}

// xhJoinNotes joins the non-empty notes in one line, capitalised.
func xhJoinNotes(notes []string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	s := strings.Join(kept, " · ")
	return strings.ToUpper(s[:1]) + s[1:]
}

type xhalemDamageResult struct {
	kit.Outcome
	Kind       rules.Kind   `json:"kind"`
	Weapon     rules.Weapon `json:"weapon"`
	Stat       string       `json:"stat"`
	Score      int          `json:"score"`
	Rolled     int          `json:"rolled"`
	Base       int          `json:"base"`
	Halved     bool         `json:"halved"`
	Immune     bool         `json:"immune"`
	Vulnerable bool         `json:"vulnerable"`
}

func (h *handlers) xhalemDamage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem damage kind:machine weapon:melee roll:2d8 hull:3"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	d := rules.DamageInput{Kind: in.kind, Bonus: in.opt("bonus"), OutOfRange: req.Options.Bool("out_of_range"), InsideMech: req.Options.Bool("inside_mech")}
	if d.Weapon, err = xhParsed(in, "weapon", ex, rules.ParseWeapon); err != nil {
		return kit.Response{}, err
	}
	if d.Type, err = xhParsed(in, "type", ex+" type:fire", rules.ParseDamageType); err != nil {
		return kit.Response{}, err
	}
	if d.Immersion, err = xhParsed(in, "immersion", ex+" immersion:full", rules.ParseImmersion); err != nil {
		return kit.Response{}, err
	}
	stat := rules.DamageStat(in.kind, d.Weapon)
	if stat != "" {
		if d.Score, err = in.need(stat); err != nil {
			return kit.Response{}, err
		}
	}
	d.Roll = strings.TrimSpace(req.Options.String("roll"))
	if d.Roll == "" && d.Weapon != rules.Unarmed {
		return kit.Response{}, kit.Errorf("/xhalem damage needs roll: the weapon's damage dice (example: %s)", ex)
	}
	if d.Roll != "" {
		// The dice are the user's text: a mistake in them is theirs, shown
		// with a caret, before the rules roll them.
		if _, err := dice.Parse(d.Roll); err != nil {
			return kit.Response{}, kit.DiceError(err)
		}
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	r, err := rules.Damage(d, in.cfg, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemDamageResult{Outcome: kit.Outcome{Total: r.Total}, Kind: in.kind, Weapon: d.Weapon, Stat: r.Stat, Score: r.Score,
		Rolled: r.Rolled, Base: r.Base, Halved: r.Halved, Immune: r.Immune, Vulnerable: r.Vulnerable}
	line := fmt.Sprintf("%s deals %d damage", in.who(), r.Total)
	parts := []string{fmt.Sprintf("%d rolled", r.Rolled)}
	if r.Stat != "" {
		parts = append(parts, fmt.Sprintf("%s %s", xhSigned(r.Score), r.Stat))
	}
	if b := in.opt("bonus"); b != 0 {
		parts = append(parts, xhSigned(b)+" bonus")
	}
	line += " (" + strings.Join(parts, " ")
	if r.Stat == "" {
		line += fmt.Sprintf("; nothing added for a %s's %s", in.kind, xhWeaponName(d.Weapon))
	}
	line += ")"
	switch {
	case r.Halved && r.Immune:
		line += ", halved out of range, and the target is immune"
	case r.Halved && r.Vulnerable:
		line += fmt.Sprintf(", halved out of range, then ×%d: vulnerable to electrical damage in water", in.cfg.VulnerableMultiplier)
	case r.Halved:
		line += ", halved: out of range"
	case r.Immune && d.Type == rules.FireDamage:
		line += ": immune to fire while fully immersed"
	case r.Immune:
		line += ": a creature inside a mech is unaffected by electrical damage to it"
	case r.Vulnerable:
		line += fmt.Sprintf(", ×%d: vulnerable to electrical damage in water", in.cfg.VulnerableMultiplier)
	}
	if err := h.Finish(ctx, req, t, "xhalem damage", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line), nil
}

// xhWeaponName names a weapon as the text does.
func xhWeaponName(w rules.Weapon) string {
	switch w {
	case rules.Energy:
		return "energy ranged weapon"
	case rules.Conventional:
		return "conventional ranged weapon"
	case rules.Thrown:
		return "thrown weapon"
	case rules.Unarmed:
		return "unarmed engagement"
	}
	return "melee weapon"
}

type xhalemGrappleResult struct {
	kit.Outcome
	xhalemEngagement
	Grappled bool `json:"grappled"`
}

// sizes reads the size and target_size options.
func (in xhIn) sizes(ex string) (rules.Size, rules.Size, error) {
	size, err := xhParsed(in, "size", ex, rules.ParseSize)
	if err != nil {
		return "", "", err
	}
	target, err := xhParsed(in, "target_size", ex, rules.ParseSize)
	return size, target, err
}

func (h *handlers) xhalemGrapple(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem grapple kind:creature evasion:2 strength:3"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	stat := rules.MightStat(in.kind)
	score, err := in.need(stat)
	if err != nil {
		return kit.Response{}, err
	}
	g := rules.GrappleInput{Kind: in.kind, Score: score, Bonus: in.opt("bonus"), Evasion: in.opt("evasion"), Helpless: req.Options.Bool("helpless")}
	if g.Mode, g.TargetMode, err = in.modes(ex); err != nil {
		return kit.Response{}, err
	}
	if g.Water, err = xhParsed(in, "underwater", ex, rules.ParseWater); err != nil {
		return kit.Response{}, err
	}
	if g.Size, g.TargetSize, err = in.sizes(ex + " size:medium target_size:large"); err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	r, err := rules.Grapple(g, in.cfg, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemGrappleResult{xhalemEngagement: xhEngagementOf(in.kind, stat, score, r), Grappled: r.Hit}
	xhEngaged(&res.Outcome, r)
	line := fmt.Sprintf("%s grapples: %s", in.who(), xhVersus(r, "grappled", "the target evades"))
	if r.Hit {
		line += "; it may spend its action to break free (/xhalem escape); while you hold it you take no other action, and dragging it halves your speed unless it is two or more sizes smaller"
	}
	notes := []string{xhModeNote("Engagement", r.Mode, r.Sources)}
	if r.Evasion != nil {
		notes = append(notes, xhModeNote("evasion", r.TargetMode, r.TargetWhy))
	}
	if err := h.Finish(ctx, req, t, "xhalem grapple", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line, xhJoinNotes(notes)), nil
}

type xhalemEscapeResult struct {
	kit.Outcome
	Kind     rules.Kind `json:"kind"`
	Stat     string     `json:"stat"`
	Score    int        `json:"score"`
	Natural  int        `json:"natural"`
	Grappler int        `json:"grappler"` // the grappler's counter total
}

func (h *handlers) xhalemEscape(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem escape kind:machine grappler:3 hull:2"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	stat := rules.MightStat(in.kind)
	score, err := in.need(stat)
	if err != nil {
		return kit.Response{}, err
	}
	mode, err := in.mode("mode", ex)
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	r, err := rules.Escape(rules.EscapeInput{Kind: in.kind, Score: score, Bonus: in.opt("bonus"), Mode: mode, Grappler: in.opt("grappler")}, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemEscapeResult{Outcome: kit.Outcome{Total: r.Actor.Total}, Kind: in.kind, Stat: stat, Score: score, Natural: r.Actor.Natural, Grappler: r.Opponent.Total}
	res.Succeeded(r.Success, r.Margin)
	line := fmt.Sprintf("%s tries to break free: %d vs %d: ", in.who(), r.Actor.Total, r.Opponent.Total)
	switch {
	case r.Margin > 0:
		line += fmt.Sprintf("free, by %d", r.Margin)
	case r.Margin == 0:
		line += "free (equal is enough)"
	default:
		line += fmt.Sprintf("still grappled, by %d: no move or further action this turn", -r.Margin)
	}
	if err := h.Finish(ctx, req, t, "xhalem escape", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line, xhModeNote("Roll", mode, nil)), nil
}

type xhalemShoveResult struct {
	kit.Outcome
	xhalemEngagement
	Hit        bool   `json:"hit"`
	Engagement int    `json:"engagement"`          // the engagement total
	Check      *int   `json:"check,omitempty"`     // your Hull or Strength check
	Resist     *int   `json:"resist,omitempty"`    // the target's
	Effect     string `json:"effect"`              // push or knock_down
	PushFeet   int    `json:"push_feet,omitempty"` // on a successful push
}

func (h *handlers) xhalemShove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem shove kind:machine evasion:2 resist:3 systems:2 hull:4 effect:knock_down"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	stat := rules.EngageStat(in.kind)
	helpless := req.Options.Bool("helpless")
	s := rules.ShoveInput{Kind: in.kind, Bonus: in.opt("bonus"), Evasion: in.opt("evasion"), Resist: in.opt("resist"), Helpless: helpless}
	if !helpless {
		// "You succeed automatically if the target is incapacitated": no
		// roll, so no stat is needed then.
		if s.Score, err = in.need(stat); err != nil {
			return kit.Response{}, err
		}
		if s.Might, err = in.need(rules.MightStat(in.kind)); err != nil {
			return kit.Response{}, err
		}
	}
	effect, err := xhParsed(in, "effect", ex, func(v string) (string, error) {
		switch v {
		case "", "push":
			return "push", nil
		case "knock_down", "knock":
			return "knock_down", nil
		}
		return "", fmt.Errorf("effect %q: use push or knock_down", v)
	})
	if err != nil {
		return kit.Response{}, err
	}
	if s.Mode, s.TargetMode, err = in.modes(ex); err != nil {
		return kit.Response{}, err
	}
	if s.Water, err = xhParsed(in, "underwater", ex, rules.ParseWater); err != nil {
		return kit.Response{}, err
	}
	if s.Size, s.TargetSize, err = in.sizes(ex + " size:medium target_size:large"); err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	r, err := rules.Shove(s, in.cfg, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemShoveResult{xhalemEngagement: xhEngagementOf(in.kind, stat, s.Score, r.Engagement), Hit: r.Engagement.Hit,
		Engagement: r.Engagement.Engagement.Total, Effect: effect}
	done := "pushes the target 5 feet away"
	if effect == "knock_down" {
		done = "knocks the target down"
	} else if r.Success {
		res.PushFeet = rules.PushFeet
	}
	line := in.who() + " shoves: "
	switch {
	case helpless:
		res.Stat, res.Total = "", 0
		res.Success = &r.Success
		line += "the target is incapacitated: automatic success, " + done
	case r.Check == nil:
		xhEngaged(&res.Outcome, r.Engagement)
		line += "engagement " + xhVersus(r.Engagement, "hit", "miss") + ": no shove"
	default:
		c := r.Check
		res.Total = c.Actor.Total
		res.Succeeded(c.Success, c.Margin)
		res.Check, res.Resist = &c.Actor.Total, &c.Opponent.Total
		line += fmt.Sprintf("engagement %d vs %d hits; %s %d vs %d: ", r.Engagement.Engagement.Total, r.Engagement.EvasionTo, rules.MightStat(in.kind), c.Actor.Total, c.Opponent.Total)
		switch {
		case c.Success:
			line += fmt.Sprintf("success by %d, %s", c.Margin, done)
		case c.Margin == 0:
			line += "a tie: the target holds"
		default:
			line += fmt.Sprintf("the target holds, by %d", -c.Margin)
		}
	}
	var notes []string
	if !helpless {
		notes = append(notes, xhModeNote("Engagement", r.Engagement.Mode, r.Engagement.Sources))
		if r.Engagement.Evasion != nil {
			notes = append(notes, xhModeNote("evasion", r.Engagement.TargetMode, r.Engagement.TargetWhy))
		}
	}
	if err := h.Finish(ctx, req, t, "xhalem shove", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line, xhJoinNotes(notes)), nil
}

type xhalemSpeedResult struct {
	kit.Outcome
	Kind rules.Kind `json:"kind"`
	rules.SpeedResult
}

func (h *handlers) xhalemSpeed(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem speed kind:machine engine:2 reactor:3 size:gargantuan dash:true"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	if in.kind == "" {
		in.kind = rules.Machine
	}
	s := rules.SpeedInput{Kind: in.kind, Bonus: in.opt("bonus"), Mount: in.opt("mount"), Dash: req.Options.Bool("dash"), Difficult: req.Options.Bool("difficult"),
		Moved: in.opt("moved"), Rounds: in.opt("rounds"), Base: in.sheet.Or(req, "speed", 0)}
	if s.Size, err = xhParsed(in, "size", ex, rules.ParseSize); err != nil {
		return kit.Response{}, err
	}
	if s.Drag, err = xhParsed(in, "drag", ex+" drag:small", rules.ParseSize); err != nil {
		return kit.Response{}, err
	}
	if in.kind == rules.Machine {
		// Space speed needs both scores; with neither, it is left out.
		engine, hasEngine := in.sheet.Stat(req, "engine")
		reactor, hasReactor := in.sheet.Stat(req, "reactor")
		switch {
		case hasEngine && !hasReactor:
			if _, err := in.need("reactor"); err != nil {
				return kit.Response{}, err
			}
		case hasReactor && !hasEngine:
			if _, err := in.need("engine"); err != nil {
				return kit.Response{}, err
			}
		}
		s.Space, s.Engine, s.Reactor = hasEngine && hasReactor, engine, reactor
	} else if req.Options.Has("engine") || req.Options.Has("reactor") {
		return kit.Response{}, kit.Errorf("only machines have a space speed from Engine and Reactor (example: %s)", ex)
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	r, err := rules.Speed(s, in.cfg)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemSpeedResult{Outcome: kit.Outcome{Total: r.Total}, Kind: in.kind, SpeedResult: r}
	line := fmt.Sprintf("%s moves %d %s", in.who(), r.Total, r.Unit)
	if in.kind == rules.Machine {
		line += fmt.Sprintf(" (%d feet)", r.Feet)
	}
	line += " this turn"
	var how []string
	if s.Mount > 0 {
		how = append(how, fmt.Sprintf("the mount's speed %d", s.Mount))
	}
	if r.Dragging {
		how = append(how, "halved dragging a grappled combatant")
	}
	if s.Dash {
		dash := "dash"
		if in.kind == rules.Machine {
			dash = "thrust"
		}
		how = append(how, fmt.Sprintf("doubled by a %s from %d", dash, r.Max))
	}
	if r.Difficult {
		one := map[string]string{"hexes": "hex", "feet": "foot"}[r.Unit]
		how = append(how, fmt.Sprintf("difficult terrain: each %s costs %d", one, in.cfg.DifficultCost))
	}
	if len(how) > 0 {
		line += " (" + strings.Join(how, ", ") + ")"
	}
	if s.Moved > 0 {
		line += fmt.Sprintf("; %d left after %d", r.Remaining, s.Moved)
	}
	notes := []string{fmt.Sprintf("Steps of %d in combat · reach %d", r.Interval, r.Reach)}
	if r.SpaceKm != nil {
		notes = append(notes, fmt.Sprintf("In space: %s a round (%s a second), in steps of 1,000 km", xhKm(*r.SpaceKm), xhKm(*r.PerSecondKm)))
	}
	if s.Rounds > 0 {
		n := fmt.Sprintf("In %d rounds (%d seconds): %d %s", s.Rounds, r.Seconds, r.Distance, r.Unit)
		if r.SpaceDistance != nil {
			n += ", " + xhKm(*r.SpaceDistance) + " in space"
		}
		notes = append(notes, n)
	}
	if err := h.Finish(ctx, req, t, "xhalem speed", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line, strings.Join(notes, "\n")), nil
}

type xhalemCheckResult struct {
	kit.Outcome
	Stat    string     `json:"stat"`
	Score   int        `json:"score"`
	Natural int        `json:"natural"`
	Mode    rules.Mode `json:"mode"`
	CR      int        `json:"cr"`
}

func (h *handlers) xhalemCheck(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const ex = "/xhalem check stat:scanners cr:15 score:3"
	in, err := h.xhalemIn(ctx, req, ex)
	if err != nil {
		return kit.Response{}, err
	}
	stat := strings.ToLower(strings.TrimSpace(req.Options.String("stat")))
	if !kit.StatNameRE.MatchString(stat) || len(stat) > kit.MaxStatName {
		return kit.Response{}, kit.Errorf("stat %q: a stat is a name like hull or scanners (example: %s)", req.Options.String("stat"), ex)
	}
	score, ok := in.sheet.Stat(req, stat)
	if v, given := req.Options.Int("score"); given {
		score, ok = int(v), true
	}
	if !ok {
		if n := in.sheet.Name(); n != "" {
			return kit.Response{}, kit.Errorf("/xhalem check needs %s: give score:<number>, or add it to %s's sheet with /character set name:%s stats:\"%s=3\"", stat, n, n, stat)
		}
		return kit.Response{}, kit.Errorf("/xhalem check needs the value of %s: give score:<number>, or character:<name> to read it from a sheet (example: %s)", stat, ex)
	}
	mode, err := in.mode("mode", ex)
	if err != nil {
		return kit.Response{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return kit.Response{}, err
	}
	cr := in.opt("cr")
	roll, ok, err := rules.Check(rules.CheckInput{Score: score, Bonus: in.opt("bonus"), Mode: mode, CR: cr}, in.cfg, t)
	if err != nil {
		return kit.Response{}, xhRulesError(err, ex)
	}
	res := xhalemCheckResult{Outcome: kit.Outcome{Total: roll.Total}, Stat: stat, Score: score, Natural: roll.Natural, Mode: mode, CR: cr}
	margin := roll.Total - cr
	res.Succeeded(ok, margin)
	line := fmt.Sprintf("%s %s check: %d vs %d: ", in.who(), stat, roll.Total, cr)
	switch {
	case ok:
		line += fmt.Sprintf("success by %d", margin)
	case margin == 0:
		line += "failure (a check must beat the number)"
	default:
		line += fmt.Sprintf("failure by %d", -margin)
	}
	if err := h.Finish(ctx, req, t, "xhalem check", &res.Outcome, res); err != nil {
		return kit.Response{}, err
	}
	return xhalemReply(req, t, res.ID, res, line, xhModeNote("Roll", mode, nil)), nil
}
