package ulm

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/encounter"
	rules "github.com/tablehand/tablehand/rules/ulm"
)

// The /ulm command: the rules of seed 002, "Midnight in Vaia" (see
// rules/ulm and docs/rules.md). Option names that hold stats are the stat
// names of a ulm character sheet, so `character:` fills them in.

var ulmPrivate = kit.Option{Type: kit.Boolean, Name: "private", Description: "Only you see the result"}

// ulmStateOptions are the Victim's Hit Points and Injury Panel, for the
// subcommands that change them.
var ulmStateOptions = []kit.Option{
	{Type: kit.Integer, Name: "hp", Description: "Hit Points (stat hp)", MinValue: kit.Float(1)},
	{Type: kit.Integer, Name: "damage", Description: "Damage already on Injury Cards, besides Holy and Spite", MinValue: kit.Float(0)},
	{Type: kit.Integer, Name: "holy", Description: "Holy damage already on Injury Cards", MinValue: kit.Float(0)},
	{Type: kit.Integer, Name: "spite", Description: "Spite damage already on Injury Cards", MinValue: kit.Float(0)},
	{Type: kit.Boolean, Name: "vulnerable", Description: "Vulnerable now (default: damage exceeds hp)"},
}

func ulmChoices[T ~string](vals []T) []kit.Choice {
	out := make([]kit.Choice, len(vals))
	for i, v := range vals {
		out[i] = kit.Choice{Name: string(v), Value: string(v)}
	}
	return out
}

var ulmPhaseOption = kit.Option{Type: kit.String, Name: "phase", Description: "Active Phase (Action Slots, default) or Reserve Phase (Reserved Slots)",
	Choices: ulmChoices([]rules.Phase{rules.Active, rules.Reserve})}

// ulmActorOption names who acts; in a running fight, a combatant.
func ulmActorOption(desc string) kit.Option {
	return kit.Option{Type: kit.String, Name: "actor", Description: desc, Autocomplete: true, MaxLength: kit.MaxNameLen}
}

func ulmOptions(opts ...[]kit.Option) []kit.Option {
	var out []kit.Option
	for _, o := range opts {
		out = append(out, o...)
	}
	return append(out, kit.DiceOption, kit.CharacterOption, ulmPrivate)
}

var ulmCommand = kit.Command{
	Name:        "ulm",
	Description: "Midnight in Vaia: Action Slots, movement, falls, injuries and Epilogues",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "slots", Description: "Action Slots your Active Phase begins with: 5 + Agility", Options: ulmOptions([]kit.Option{
			{Type: kit.Integer, Name: "agility", Description: "Your Agility"},
			{Type: kit.String, Name: "alacrity", Description: "Enhanced Alacrity of each source, e.g. 2,1: the strongest counts", MaxLength: 100},
			{Type: kit.String, Name: "bonus", Description: "Bonus Action Slots of each source, first gained first: only one counts", MaxLength: 100},
			{Type: kit.Integer, Name: "bonus_instance", Description: "Which time this Full Round you gain Bonus slots (2+: Stress)", MinValue: kit.Float(1)},
			{Type: kit.String, Name: "dilation", Description: "Action Slots of each Time Dilation effect, e.g. 1,2: all stack", MaxLength: 100},
			{Type: kit.Boolean, Name: "shock", Description: "You are in Shock: only 1 Action Slot"},
		})},
		{Type: kit.SubCommand, Name: "move", Description: "A Movement Action: Celerity, Tiles, Momentum, Jump and Leap checks", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "action", Description: "The Movement Action", Required: true, Choices: ulmChoices(rules.Moves)},
			ulmActorOption("Who moves: a combatant of this channel's fight spends its slots (default: the character)"),
			ulmPhaseOption,
			{Type: kit.Integer, Name: "accuracy", Description: "Your Accuracy, for jump and leap"},
			{Type: kit.Boolean, Name: "momentum", Description: "You have Momentum (needed by momentum and leap)"},
			{Type: kit.Integer, Name: "slots", Description: "Action Slots spent on momentum (3 Tiles each)", MinValue: kit.Float(1), MaxValue: kit.Float(100)},
			{Type: kit.Boolean, Name: "last_slot", Description: "This spends your last Action Slot of the Active Phase"},
			{Type: kit.String, Name: "surface", Description: "Surface climbed: minimal (rope), moderate (rock), difficult (brick), sheer", Choices: ulmChoices(rules.Surfaces)},
			{Type: kit.Boolean, Name: "limbs_busy", Description: "Your hands or legs are not free (climbing needs them)"},
			{Type: kit.Boolean, Name: "gear", Description: "You have appropriate climbing equipment"},
		})},
		{Type: kit.SubCommand, Name: "fall", Description: "A fall: Action Slots consumed and (3v:6+T) damage, at least T% of Hit Points", Options: ulmOptions([]kit.Option{
			{Type: kit.Integer, Name: "tiles", Description: "Tiles fallen, counting the Tile the fall begins from", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(100000)},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "slots", Description: "Action Slots you gain each Full Round (caps slots consumed)", MinValue: kit.Float(0)},
			{Type: kit.String, Name: "target", Description: "Who falls (default: the character or you)", Autocomplete: true, MaxLength: kit.MaxNameLen},
		})},
		{Type: kit.SubCommand, Name: "injure", Description: "Damage a Victim: Mitigation, an Injury Card, Vulnerable", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "target", Description: "The Victim", Required: true, Autocomplete: true, MaxLength: kit.MaxNameLen},
			{Type: kit.String, Name: "amount", Description: "Potency: a number or dice, e.g. 2d6+3", Required: true, MaxLength: dice.MaxExprLen},
			{Type: kit.String, Name: "type", Description: "Damage type", Required: true, Choices: ulmChoices(rules.DamageTypes)},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "mitigation", Description: "Mitigation of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Integer, Name: "amplification", Description: "Amplification of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Integer, Name: "weakness", Description: "Weakness of all sources", MinValue: kit.Float(0), MaxValue: kit.Float(encounter.MaxAmount)},
			{Type: kit.Boolean, Name: "object", Description: "The damage hits Armor or an Object's Durability"},
			{Type: kit.String, Name: "execution", Description: "The Action has Execution: this Epilogue applies if Vulnerable", Choices: ulmChoices(rules.Epilogues)},
			{Type: kit.String, Name: "source", Description: "Damage Source on the Injury Card (default: you)", MaxLength: kit.MaxNameLen},
		})},
		{Type: kit.SubCommand, Name: "epilogue", Description: "Spend 1 slot on a Vulnerable Victim: maim, knockout or execute", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "kind", Description: "The Epilogue", Required: true, Choices: ulmChoices(rules.Epilogues)},
			{Type: kit.String, Name: "target", Description: "The Victim", Autocomplete: true, MaxLength: kit.MaxNameLen},
			ulmActorOption("Who activates it: a combatant of this channel's fight spends its slot"),
		}, ulmStateOptions, []kit.Option{
			ulmPhaseOption,
			{Type: kit.Integer, Name: "slots", Description: "Slots you have left in this phase", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "reach", Description: "Your equipment Reaches the Victim or it is in Range (default true)"},
		})},
		{Type: kit.SubCommand, Name: "heal", Description: "Heal Hit Points or grant a Barrier: Holy and Spite resist normal healing", Options: ulmOptions([]kit.Option{
			{Type: kit.String, Name: "amount", Description: "Hit Points healed: a number or dice, e.g. 2d6", MaxLength: dice.MaxExprLen},
			{Type: kit.Boolean, Name: "special", Description: "Specialized healing or an item (heals Holy, Spite, a Maim)"},
			{Type: kit.Boolean, Name: "barrier", Description: "A Barrier is granted"},
			{Type: kit.String, Name: "target", Description: "Who is healed", Autocomplete: true, MaxLength: kit.MaxNameLen},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "maimed", Description: "Hours since the target was Maimed", MinValue: kit.Float(0)},
		})},
		{Type: kit.SubCommand, Name: "rest", Description: "Let time pass: Holy and Spite fade 1 a day, Shock and Knocked Out end", Options: ulmOptions([]kit.Option{
			{Type: kit.Integer, Name: "rounds", Description: "Full Rounds that pass", MinValue: kit.Float(0), MaxValue: kit.Float(1000000)},
			{Type: kit.Integer, Name: "hours", Description: "Hours that pass", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "days", Description: "Days that pass", MinValue: kit.Float(0), MaxValue: kit.Float(10000)},
			{Type: kit.String, Name: "target", Description: "Who rests", MaxLength: kit.MaxNameLen},
		}, ulmStateOptions, []kit.Option{
			{Type: kit.Integer, Name: "shock", Description: "Minutes of Shock left", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "knocked_out", Description: "Full Rounds Knocked Out left", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "maimed", Description: "Hours since the target was Maimed", MinValue: kit.Float(0)},
		})},
	},
}

// registerUlm adds /ulm, the rules of seed ulm (see rules/ulm).
func (h *handlers) registerUlm(r *kit.Router) {
	r.Define(ulmCommand)
	for _, sub := range []struct {
		name string
		h    kit.Handler
	}{
		{"slots", h.ulmSlots}, {"move", h.ulmMove}, {"fall", h.ulmFall}, {"injure", h.ulmInjure},
		{"epilogue", h.ulmEpilogue}, {"heal", h.ulmHeal}, {"rest", h.ulmRest},
	} {
		r.Route("ulm/"+sub.name, sub.h, false)
		r.RouteAutocomplete("ulm/"+sub.name, "character", h.SuggestCharacters)
	}
	// In a running fight, actor: and target: name its combatants.
	for _, route := range []struct{ sub, option string }{
		{"move", "actor"}, {"epilogue", "actor"}, {"epilogue", "target"}, {"fall", "target"}, {"heal", "target"}, {"injure", "target"},
	} {
		r.RouteAutocomplete("ulm/"+route.sub, route.option, h.fight.SuggestCombatants)
	}
}

// ulmRun is what every /ulm subcommand needs: the validated rules
// configuration, the sheet, the table, and its dice as the rules roll them.
type ulmRun struct {
	cfg   rules.Config
	sheet kit.Sheet
	t     *kit.Tray
	dice  *ulmDice
}

func (h *handlers) ulmStart(ctx context.Context, req *kit.Request) (*ulmRun, error) {
	cfg := h.config()
	if err := cfg.Validate(); err != nil {
		return nil, err // the operator's mistake, not the player's
	}
	sheet, err := h.Sheet(ctx, req, "ulm")
	if err != nil {
		return nil, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return nil, err
	}
	return &ulmRun{cfg: cfg, sheet: sheet, t: t, dice: &ulmDice{t: t}}, nil
}

// ulmDice lets the rules roll through the table, and remembers a failure
// that was not the user's doing, so fail can tell it from a rule the
// input broke.
type ulmDice struct {
	t      *kit.Tray
	rolls  int
	failed error
}

func (d *ulmDice) Roll(expr string) (*dice.Result, error) {
	d.rolls++
	res, err := d.t.Roll(expr)
	if err != nil {
		if _, ok := kit.AsUserError(err); !ok {
			d.failed = err
		}
	}
	return res, err
}

// fail turns an error of the rules into the user's mistake, with a
// correct example, unless the dice failed on our side.
func (u *ulmRun) fail(what string, err error, example string) error {
	if u.dice.failed != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if ue, ok := kit.AsUserError(err); ok {
		return ue
	}
	return &kit.UserError{Msg: fmt.Sprintf("%s (example: %s)", err, example), Err: err}
}

// who names the actor or Victim: the option, else the sheet's character,
// else fallback. The name is as given: escape it for the reply, not for
// the `result`.
func (u *ulmRun) who(req *kit.Request, option, fallback string) (string, error) {
	if name := req.Options.String(option); name != "" {
		n, err := kit.CleanName(option+" name", name)
		if err != nil {
			return "", err
		}
		return n, nil
	}
	if n := u.sheet.Name(); n != "" {
		return n, nil
	}
	return fallback, nil
}

// flag reads a yes/no: the Boolean option, else the sheet's stat as
// nonzero, else def.
func (u *ulmRun) flag(req *kit.Request, name string, def bool) bool {
	if req.Options.Has(name) {
		return req.Options.Bool(name)
	}
	if v, ok := u.sheet.Stat(req, name); ok {
		return v != 0
	}
	return def
}

// list reads a comma list of whole numbers from a text option, else one
// number from the sheet's stat of that name.
func (u *ulmRun) list(req *kit.Request, name, example string) ([]int, error) {
	text := strings.TrimSpace(req.Options.String(name))
	if text == "" {
		if v, ok := u.sheet.Stat(req, name); ok {
			return []int{v}, nil
		}
		return nil, nil
	}
	var out []int
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, err := strconv.Atoi(strings.TrimPrefix(f, "+"))
		if err != nil || n < 0 || n > 1000 {
			return nil, kit.Errorf("%s takes whole numbers from 0 to 1000 separated by commas, not %q (example: %s)", name, f, example)
		}
		out = append(out, n)
	}
	return out, nil
}

// amount reads a number or rolls a dice expression the user gave.
func (u *ulmRun) amount(req *kit.Request, name string) (int, error) {
	text := strings.TrimSpace(req.Options.String(name))
	if text == "" {
		return 0, nil
	}
	if n, err := strconv.Atoi(text); err == nil {
		if n < 0 {
			return 0, kit.Errorf("%s is %d: give 0 or more (example: %s:7 or %s:2d6+3)", name, n, name, name)
		}
		return n, nil
	}
	e, err := dice.Parse(text)
	if err != nil {
		return 0, kit.DiceError(err)
	}
	res, err := u.dice.Roll(e.String())
	if err != nil {
		return 0, err
	}
	if res.Total < 0 {
		return 0, kit.Errorf("%s rolled %d: it must come to 0 or more (example: %s:2d6+3)", name, res.Total, name)
	}
	return res.Total, nil
}

// state reads the Victim's Hit Points and statuses: options first, then the
// sheet. Damage typed in becomes one Injury Card per kind, from "earlier".
func (u *ulmRun) state(req *kit.Request) (rules.State, error) {
	hp, err := u.sheet.Need(req, "hp")
	if err != nil {
		return rules.State{}, err
	}
	if hp < 1 {
		return rules.State{}, kit.Errorf("hp is %d: Hit Points are 1 or more (example: hp:20)", hp)
	}
	s := rules.State{HitPoints: hp}
	for _, k := range []struct {
		stat string
		typ  rules.DamageType
	}{{"damage", rules.Earlier}, {"holy", rules.Holy}, {"spite", rules.Spite}} {
		v := u.sheet.Or(req, k.stat, 0)
		if v < 0 {
			return rules.State{}, kit.Errorf("%s is %d: damage is 0 or more (example: %s:5)", k.stat, v, k.stat)
		}
		if v > 0 {
			s.Cards = append(s.Cards, rules.Card{Source: "earlier", Type: k.typ, Damage: v})
		}
	}
	s.Vulnerable = u.flag(req, "vulnerable", s.Over())
	minutes := u.sheet.Or(req, "shock", 0)
	rounds := u.sheet.Or(req, "knocked_out", 0)
	if minutes < 0 || rounds < 0 {
		return rules.State{}, kit.Errorf("shock and knocked_out are the time left: 0 or more (example: shock:30)")
	}
	s.Shock = time.Duration(minutes) * time.Minute
	s.KnockedOut = time.Duration(rounds) * u.cfg.FullRound()
	if hours, ok := u.sheet.Stat(req, "maimed"); ok {
		if hours < 0 {
			return rules.State{}, kit.Errorf("maimed is the hours since the Maim: 0 or more (example: maimed:2)")
		}
		s.Maimed = true
		s.MaimWindow = max(rules.MaimWindow-time.Duration(hours)*time.Hour, 0)
	}
	return s, nil
}

// ulmState is a State as the console's `result` shows it, in the units of
// the options that read it back.
type ulmState struct {
	HP               int       `json:"hp"`
	Damage           int       `json:"damage"` // besides Holy and Spite, as the damage: option
	Holy             int       `json:"holy"`
	Spite            int       `json:"spite"`
	TotalDamage      int       `json:"total_damage"`
	Vulnerable       bool      `json:"vulnerable"`
	Dead             bool      `json:"dead"`
	Maimed           bool      `json:"maimed"`
	MaimHoursLeft    int       `json:"maim_hours_left"`
	ShockMinutes     int       `json:"shock_minutes"`
	KnockedOutRounds int       `json:"knocked_out_rounds"`
	Cards            []ulmCard `json:"cards"`
}

type ulmCard struct {
	Source string `json:"source"`
	Type   string `json:"type"`
	Damage int    `json:"damage"`
}

func newUlmState(s rules.State, cfg rules.Config) ulmState {
	out := ulmState{
		HP: s.HitPoints, Holy: s.DamageOf(rules.Holy), Spite: s.DamageOf(rules.Spite), TotalDamage: s.Damage(),
		Vulnerable: s.Vulnerable, Dead: s.Dead, Maimed: s.Maimed,
		MaimHoursLeft:    int((s.MaimWindow + time.Hour - 1) / time.Hour),
		ShockMinutes:     int((s.Shock + time.Minute - 1) / time.Minute),
		KnockedOutRounds: rules.Rounds(s.KnockedOut, cfg),
		Cards:            []ulmCard{},
	}
	out.Damage = out.TotalDamage - out.Holy - out.Spite
	for _, c := range s.Cards {
		t := string(c.Type)
		if c.Type == rules.Earlier {
			t = "earlier"
		}
		out.Cards = append(out.Cards, ulmCard{Source: c.Source, Type: t, Damage: c.Damage})
	}
	return out
}

// ulmStatusLine sums up a State in words: "13/10 damage, Vulnerable".
func ulmStatusLine(s rules.State, cfg rules.Config) string {
	parts := []string{fmt.Sprintf("%d/%d damage", s.Damage(), s.HitPoints)}
	if holy, spite := s.DamageOf(rules.Holy), s.DamageOf(rules.Spite); holy+spite > 0 {
		parts[0] += fmt.Sprintf(" (%d Holy, %d Spite)", holy, spite)
	}
	if s.Dead {
		return strings.Join(append(parts, "**dead**"), ", ")
	}
	if s.Vulnerable {
		parts = append(parts, "**Vulnerable**")
	}
	if s.Maimed {
		if s.MaimWindow > 0 {
			parts = append(parts, fmt.Sprintf("Maimed (reversible for %s)", ulmHours(s.MaimWindow)))
		} else {
			parts = append(parts, "Maimed")
		}
	}
	if s.KnockedOut > 0 {
		parts = append(parts, fmt.Sprintf("Knocked Out for %d Full Rounds", rules.Rounds(s.KnockedOut, cfg)))
	}
	if s.Shock > 0 {
		parts = append(parts, fmt.Sprintf("in Shock for %s", ulmHours(s.Shock)))
	}
	return strings.Join(parts, ", ")
}

func ulmHours(d time.Duration) string {
	if d%time.Hour == 0 {
		if d == time.Hour {
			return "1 hour"
		}
		return fmt.Sprintf("%d hours", d/time.Hour)
	}
	return fmt.Sprintf("%d minutes", (d+time.Minute-1)/time.Minute)
}

// reply finishes a /ulm subcommand: the dice checked and logged, the
// outcome line, the dice, the roll ID.
func (h *handlers) ulmReply(ctx context.Context, req *kit.Request, u *ulmRun, expr string, out *kit.Outcome, result any, line string) (kit.Response, error) {
	if err := u.diceUsed(req); err != nil {
		return kit.Response{}, err
	}
	if err := h.Finish(ctx, req, u.t, expr, out, result); err != nil {
		return kit.Response{}, err
	}
	content := line
	if b := u.t.Breakdown(); b != "" {
		content += "\n" + b
	}
	content += "\n-# roll " + out.ID
	return kit.Response{Content: content, Ephemeral: req.Options.Bool("private"), Result: result}, nil
}

// diceUsed refuses `dice:` given to a subcommand that rolled nothing.
func (u *ulmRun) diceUsed(req *kit.Request) error {
	if u.dice.rolls == 0 && strings.TrimSpace(req.Options.String("dice")) != "" {
		// Say why, rather than only that the values were too many: what
		// this subcommand rolls depends on its options.
		return kit.Errorf("/%s rolls no dice here: leave out dice: (it is for the rolls of a jump or leap, a fall, or an amount like 2d6)", strings.ReplaceAll(req.Path, "/", " "))
	}
	return nil
}

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

func ulmSigned(n int) string {
	if n < 0 {
		return fmt.Sprintf(" − %d", -n)
	}
	return fmt.Sprintf(" + %d", n)
}

func ulmJoinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// ulmMoveResult is the `result` of /ulm move: total is the Accuracy Check
// of a Jump or Leap (with success and margin), else the Tiles moved.
type ulmMoveResult struct {
	kit.Outcome
	Action       string   `json:"action"`
	Phase        string   `json:"phase"`
	Celerity     int      `json:"celerity"`
	Slot         string   `json:"slot"`
	Tiles        int      `json:"tiles"`
	Target       int      `json:"target,omitempty"`
	Momentum     bool     `json:"momentum"`
	MomentumNext bool     `json:"momentum_next_phase"`
	Notes        []string `json:"notes"`
	// In a running fight: the combatant who moved and the slots it has
	// left in its phase.
	Actor     string `json:"actor,omitempty"`
	SlotsLeft *int   `json:"slots_left,omitempty"`
	ulmInFight
}

const ulmMoveExample = "/ulm move action:jump accuracy:3 dice:12"

func (h *handlers) ulmMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	name := ulmNamed(req, u, "actor")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmMoveInFight(ctx, req, u, name)
	}
	in := rules.MoveInput{
		Move: rules.Move(req.Options.String("action")), Phase: ulmPhase(req),
		HasMomentum: u.flag(req, "momentum", false), LastSlot: req.Options.Bool("last_slot"),
		Surface: rules.Surface(req.Options.String("surface")), LimbsBusy: req.Options.Bool("limbs_busy"), Gear: req.Options.Bool("gear"),
	}
	if n, ok := req.Options.Int("slots"); ok {
		in.Slots = int(n)
	}
	if in.Move == rules.Jump || in.Move == rules.Leap {
		if in.Accuracy, err = u.sheet.Need(req, "accuracy"); err != nil {
			return kit.Response{}, err
		}
	}
	res, err := rules.Act(in, u.dice)
	if err != nil {
		return kit.Response{}, u.fail("ulm move", err, ulmMoveExample)
	}
	who, err := u.who(req, "actor", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmMoveResult{
		Outcome: kit.Outcome{Total: res.Tiles}, Action: string(res.Move), Phase: string(res.Phase), Celerity: res.Celerity,
		Slot: res.Phase.Slot(), Tiles: res.Tiles, Momentum: res.Momentum, MomentumNext: res.MomentumNext, Notes: append([]string{}, res.Notes...),
	}
	slots := ulmPlural(res.Celerity, res.Phase.Slot())
	tiles := ulmPlural(res.Tiles, "Tile")
	var line string
	if c := res.Check; c != nil {
		result.Total, result.Target = c.Total, c.Target
		result.Succeeded(c.Success, c.Margin)
		line = fmt.Sprintf("**%s** %s: %s, %s for %s", kit.EscapeMarkdown(who), res.Name, ulmCheckText(c.Total, c.Target, c.Success, c.Margin), tiles, slots)
	} else {
		line = fmt.Sprintf("**%s** %s: %s for %s", kit.EscapeMarkdown(who), res.Name, tiles, slots)
	}
	var notes []string
	notes = append(notes, res.Notes...)
	if res.Momentum && !in.HasMomentum {
		notes = append(notes, "gains Momentum")
	}
	if res.MomentumNext {
		notes = append(notes, "begins the next Active Phase with Momentum")
	}
	if len(notes) > 0 {
		line += "; " + strings.Join(notes, "; ")
	}
	return h.ulmReply(ctx, req, u, "ulm move "+string(res.Move), &result.Outcome, result, line)
}

func ulmPhase(req *kit.Request) rules.Phase {
	if p := req.Options.String("phase"); p != "" {
		return rules.Phase(p)
	}
	return rules.Active
}

// ulmCheckText is the one line a player reads: "16 vs 9: success by 7".
func ulmCheckText(total, target int, ok bool, margin int) string {
	if ok {
		return fmt.Sprintf("%d vs %d: success by %d", total, target, margin)
	}
	return fmt.Sprintf("%d vs %d: failure by %d", total, target, -margin)
}

// ulmUserName is the user's name as given (displayName escapes it).
func ulmUserName(u kit.User) string {
	if u.Name == "" {
		return u.ID
	}
	return u.Name
}

func ulmTitle(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func ulmPlural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// ulmFallResult is the `result` of /ulm fall: total is the damage.
type ulmFallResult struct {
	kit.Outcome
	Target      string   `json:"target"`
	Tiles       int      `json:"tiles"`
	T           int      `json:"t"`
	Rounds      int      `json:"rounds"`
	SlotsNeeded int      `json:"slots_needed"`
	SlotsUsed   int      `json:"slots_used"`
	Formula     int      `json:"formula"`
	Minimum     int      `json:"minimum"`
	Damage      int      `json:"damage"`
	Card        *ulmCard `json:"card"`
	Dies        bool     `json:"dies"`
	State       ulmState `json:"state"`
	// In a running fight: the Action Slots owed to the faller's next
	// Active Phase, and those it has left in this one.
	SlotsOwed int  `json:"slots_owed,omitempty"`
	SlotsLeft *int `json:"slots_left,omitempty"`
	ulmInFight
}

func newUlmFallResult(res rules.FallResult, target string, cfg rules.Config) *ulmFallResult {
	return &ulmFallResult{
		Outcome: kit.Outcome{Total: res.Damage}, Target: target, Tiles: res.Tiles, T: res.T, Rounds: res.Rounds,
		SlotsNeeded: res.SlotsNeeded, SlotsUsed: res.SlotsUsed, Formula: res.Formula, Minimum: res.Minimum,
		Damage: res.Damage, Card: ulmCardResult(res.Injury.Card), Dies: res.Dies, State: newUlmState(res.Injury.State, cfg),
	}
}

const ulmFallExample = "/ulm fall tiles:30 hp:50 dice:6,6,6"

func (h *handlers) ulmFall(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	name := ulmNamed(req, u, "target")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmFallInFight(ctx, req, u, name)
	}
	tiles, _ := req.Options.Int("tiles") // absent is 0, which the rules refuse with an example
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.FallInput{Tiles: int(tiles)}
	in.Slots, in.SlotsKnown = u.sheet.Stat(req, "slots")
	res, err := rules.Fall(s, in, u.dice, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm fall", err, ulmFallExample)
	}
	who, err := u.who(req, "target", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := newUlmFallResult(res, who, u.cfg)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** falls %s: ", kit.EscapeMarkdown(who), ulmPlural(res.Tiles, "Tile"))
	if !res.Damaging {
		fmt.Fprintf(&b, "no damage (falls under %d Tiles deal none)", u.cfg.FallDamageMinTiles)
	} else {
		fmt.Fprintf(&b, "%d damage (3v:6 + %d = %d, minimum %d%% of %d HP = %d)", res.Damage, res.T, res.Formula, res.T, s.HitPoints, res.Minimum)
	}
	fmt.Fprintf(&b, ", %s consumed", ulmPlural(res.SlotsUsed, "Action Slot"))
	if res.SlotsUsed < res.SlotsNeeded {
		fmt.Fprintf(&b, " (of %d: no Action Debt)", res.SlotsNeeded)
	}
	if res.Rounds > 1 {
		fmt.Fprintf(&b, " over %d Full Rounds", res.Rounds)
	}
	if res.Dies {
		b.WriteString("; becomes Vulnerable from the fall and **dies**")
	} else {
		b.WriteString("; " + ulmStatusLine(res.Injury.State, u.cfg))
	}
	return h.ulmReply(ctx, req, u, "ulm fall", &result.Outcome, result, b.String())
}

func ulmCardResult(c *rules.Card) *ulmCard {
	if c == nil {
		return nil
	}
	return &ulmCard{Source: c.Source, Type: string(c.Type), Damage: c.Damage}
}

// ulmInjureResult is the `result` of /ulm injure: total is the damage
// after Resolution.
type ulmInjureResult struct {
	kit.Outcome
	Target           string    `json:"target"`
	Potency          int       `json:"potency"`
	Damage           int       `json:"damage"`
	Type             string    `json:"type"`
	Category         string    `json:"category"`
	Trauma           string    `json:"trauma"`
	Effect           string    `json:"effect"`
	Durability       int       `json:"durability,omitempty"`
	Card             *ulmCard  `json:"card"`
	BecameVulnerable bool      `json:"became_vulnerable"`
	Execution        string    `json:"execution,omitempty"` // the Epilogue the Action's Execution applied
	State            *ulmState `json:"state,omitempty"`     // none for Armor or an Object
	ulmInFight
}

func newUlmInjureResult(res rules.InjuryResult, in rules.Injury, target string, cfg rules.Config) *ulmInjureResult {
	result := &ulmInjureResult{
		Outcome: kit.Outcome{Total: res.Damage}, Target: target, Potency: res.Potency, Damage: res.Damage, Type: string(in.Type),
		Category: res.Info.Category, Trauma: res.Info.Trauma, Effect: res.Info.Effect, Durability: res.Durability,
		Card: ulmCardResult(res.Card), BecameVulnerable: res.BecameVulnerable,
	}
	if !in.Object {
		st := newUlmState(res.State, cfg)
		result.State = &st
	}
	if e := res.Execution; e != nil {
		result.Execution = string(e.Kind)
	}
	return result
}

const ulmInjureExample = "/ulm injure target:Goblin amount:2d6+3 type:incision hp:20 dice:4,5"

func (h *handlers) ulmInjure(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	typ, err := rules.ParseDamageType(req.Options.String("type"))
	if err != nil {
		return kit.Response{}, u.fail("ulm injure", err, ulmInjureExample)
	}
	name := ulmNamed(req, u, "target")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmInjureInFight(ctx, req, u, name, typ)
	}
	in := rules.Injury{Type: typ, Object: req.Options.Bool("object"), Execution: rules.Epilogue(req.Options.String("execution"))}
	// The Damage Source is who deals it: the option, else the one who
	// types the command. (character: is the Victim's sheet here.)
	in.Source = ulmUserName(req.User)
	if s := req.Options.String("source"); s != "" {
		if in.Source, err = kit.CleanName("source name", s); err != nil {
			return kit.Response{}, err
		}
	}
	var s rules.State
	if !in.Object { // Armor and Objects have Durability, not Hit Points
		if s, err = u.state(req); err != nil {
			return kit.Response{}, err
		}
	}
	in.Mitigation = u.sheet.Or(req, "mitigation", 0)
	in.Amplification = u.sheet.Or(req, "amplification", 0)
	in.Weakness = u.sheet.Or(req, "weakness", 0)
	if in.Potency, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Injure(s, in, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm injure", err, ulmInjureExample)
	}
	target, err := kit.CleanName("target name", req.Options.String("target"))
	if err != nil {
		return kit.Response{}, err
	}
	result := newUlmInjureResult(res, in, target, u.cfg)
	var b strings.Builder
	mods := ""
	if in.Mitigation+in.Amplification+in.Weakness > 0 {
		mods = fmt.Sprintf(" (Potency %d, Mitigation %d, Amplification %d, Weakness %d, %s)", res.Potency, in.Mitigation, in.Amplification, in.Weakness, u.cfg.ModifierMode)
	}
	if in.Object {
		fmt.Fprintf(&b, "**%s** (Armor or Object) loses %d Durability to %d %s damage%s", kit.EscapeMarkdown(target), res.Durability, res.Damage, typ, mods)
	} else {
		fmt.Fprintf(&b, "**%s** takes %d %s damage%s", kit.EscapeMarkdown(target), res.Damage, typ, mods)
		if res.Card != nil {
			fmt.Fprintf(&b, ": %s Injury Card", res.Info.Trauma)
		} else {
			b.WriteString(": no damage left, no Injury Card")
		}
		switch e := res.Execution; {
		case e != nil:
			fmt.Fprintf(&b, "; Vulnerable, and the Action's Execution applies %s at once", ulmTitle(string(e.Kind)))
		case res.BecameVulnerable:
			b.WriteString("; becomes Vulnerable: an Epilogue may follow")
		}
		b.WriteString("; " + ulmStatusLine(res.State, u.cfg))
	}
	b.WriteString("\n-# " + res.Info.Effect)
	return h.ulmReply(ctx, req, u, "ulm injure "+string(typ), &result.Outcome, result, b.String())
}

// ulmEpilogueResult is the `result` of /ulm epilogue: total is the slots
// spent.
type ulmEpilogueResult struct {
	kit.Outcome
	Kind     string   `json:"kind"`
	Target   string   `json:"target"`
	Celerity int      `json:"celerity"`
	Slot     string   `json:"slot,omitempty"`
	State    ulmState `json:"state"`
	// In a running fight: the activator named with actor:, and the slots
	// it has left in its phase.
	Actor     string `json:"actor,omitempty"`
	SlotsLeft *int   `json:"slots_left,omitempty"`
	ulmInFight
}

const ulmEpilogueExample = "/ulm epilogue kind:maim target:Goblin hp:20 damage:25"

func (h *handlers) ulmEpilogue(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	kind, err := rules.ParseEpilogue(req.Options.String("kind"))
	if err != nil {
		return kit.Response{}, u.fail("ulm epilogue", err, ulmEpilogueExample)
	}
	victim, actor := ulmNamed(req, u, "target"), strings.TrimSpace(req.Options.String("actor"))
	fight, err := h.ulmFight(ctx, req, victim, actor)
	if err != nil {
		return kit.Response{}, err
	}
	switch {
	case ulmCombatant(req, fight, victim) != nil:
		return h.ulmEpilogueInFight(ctx, req, u, kind, victim, actor)
	case ulmCombatant(req, fight, actor) != nil:
		return kit.Response{}, kit.Errorf("%s is not a combatant of this channel's fight, so its Epilogue cannot be kept there with %s's slot: add it with /init add, or leave out actor: to work the Epilogue out by hand (example: %s)", cmp.Or(victim, "the Victim"), actor, ulmEpilogueExample)
	}
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.EpilogueInput{Kind: kind, Phase: ulmPhase(req), OutOfReach: req.Options.Has("reach") && !req.Options.Bool("reach")}
	// slots: are the activator's, never the Victim's sheet.
	if n, ok := req.Options.Int("slots"); ok {
		in.Slots, in.SlotsKnown = int(n), true
	}
	res, err := rules.ActivateEpilogue(s, in, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm epilogue", err, ulmEpilogueExample)
	}
	target, err := u.who(req, "target", "the Victim")
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmEpilogueResult{
		Outcome: kit.Outcome{Total: res.Celerity}, Kind: string(kind), Target: target,
		Celerity: res.Celerity, Slot: res.Phase.Slot(), State: newUlmState(res.State, u.cfg),
	}
	by := ""
	if actor != "" {
		name, err := kit.CleanName("actor name", actor)
		if err != nil {
			return kit.Response{}, err
		}
		by = ", " + kit.EscapeMarkdown(name) + "'s"
	}
	line := fmt.Sprintf("**%s** suffers %s (%s%s): %s\n-# %s", kit.EscapeMarkdown(target), ulmTitle(string(kind)),
		ulmPlural(res.Celerity, res.Phase.Slot()), by, ulmStatusLine(res.State, u.cfg), rules.EpilogueText[kind])
	return h.ulmReply(ctx, req, u, "ulm epilogue "+string(kind), &result.Outcome, result, line)
}

// ulmHealResult is the `result` of /ulm heal: total is the damage healed.
type ulmHealResult struct {
	kit.Outcome
	Target          string   `json:"target"`
	Amount          int      `json:"amount"`
	Healed          int      `json:"healed"`
	Resisted        int      `json:"resisted"`
	VulnerableEnded bool     `json:"vulnerable_ended"`
	MaimReversed    bool     `json:"maim_reversed"`
	State           ulmState `json:"state"`
	ulmInFight
}

const ulmHealExample = "/ulm heal amount:2d6 hp:20 damage:12 dice:3,4"

func (h *handlers) ulmHeal(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	in := rules.Healing{Special: req.Options.Bool("special"), Barrier: req.Options.Bool("barrier")}
	if !req.Options.Has("amount") && !in.Special && !in.Barrier {
		return kit.Response{}, kit.Errorf("/ulm heal needs amount:, special:true or barrier:true (example: %s)", ulmHealExample)
	}
	name := ulmNamed(req, u, "target")
	fight, err := h.ulmFight(ctx, req, name)
	if err != nil {
		return kit.Response{}, err
	}
	if ulmCombatant(req, fight, name) != nil {
		return h.ulmHealInFight(ctx, req, u, name, in)
	}
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	if in.Amount, err = u.amount(req, "amount"); err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Heal(s, in)
	if err != nil {
		return kit.Response{}, u.fail("ulm heal", err, ulmHealExample)
	}
	target, err := u.who(req, "target", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmHealResult{
		Outcome: kit.Outcome{Total: res.Healed}, Target: target, Amount: in.Amount, Healed: res.Healed, Resisted: res.Resisted,
		VulnerableEnded: res.VulnerableEnded, MaimReversed: res.MaimReversed, State: newUlmState(res.State, u.cfg),
	}
	var b strings.Builder
	var did []string
	if req.Options.Has("amount") {
		did = append(did, fmt.Sprintf("heals %d of %d", res.Healed, in.Amount))
	}
	if in.Barrier {
		did = append(did, "gains a Barrier")
	}
	if in.Special {
		did = append(did, "receives specialized healing")
	}
	fmt.Fprintf(&b, "**%s** %s", kit.EscapeMarkdown(target), strings.Join(did, " and "))
	fmt.Fprintf(&b, ": %s", ulmStatusLine(res.State, u.cfg))
	var notes []string
	if res.Resisted > 0 {
		notes = append(notes, fmt.Sprintf("%d Holy/Spite damage resists normal healing", res.Resisted))
	}
	if res.VulnerableEnded {
		notes = append(notes, "no longer Vulnerable")
	}
	if res.MaimReversed {
		notes = append(notes, "the Maim is reversed")
	}
	if res.MaimTooLate {
		notes = append(notes, "too late to reverse the Maim (10 hours)")
	}
	if res.State.Shock > 0 {
		notes = append(notes, "healing does not end Shock")
	}
	if len(notes) > 0 {
		b.WriteString("; " + strings.Join(notes, "; "))
	}
	return h.ulmReply(ctx, req, u, "ulm heal", &result.Outcome, result, b.String())
}

// ulmRestResult is the `result` of /ulm rest: total is the damage faded.
type ulmRestResult struct {
	kit.Outcome
	Target          string   `json:"target"`
	Minutes         int      `json:"minutes"`
	Days            int      `json:"days"`
	FadedHoly       int      `json:"faded_holy"`
	FadedSpite      int      `json:"faded_spite"`
	ShockEnded      bool     `json:"shock_ended"`
	WokeUp          bool     `json:"woke_up"`
	MaimFixed       bool     `json:"maim_fixed"`
	VulnerableEnded bool     `json:"vulnerable_ended"`
	State           ulmState `json:"state"`
}

const ulmRestExample = "/ulm rest days:3 hp:20 holy:5"

func (h *handlers) ulmRest(ctx context.Context, req *kit.Request) (kit.Response, error) {
	u, err := h.ulmStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	rounds, _ := req.Options.Int("rounds")
	hours, _ := req.Options.Int("hours")
	days, _ := req.Options.Int("days")
	if rounds < 0 || hours < 0 || days < 0 || rounds+hours+days == 0 {
		return kit.Response{}, kit.Errorf("/ulm rest needs the time that passes: rounds:, hours: or days: (example: %s)", ulmRestExample)
	}
	d := time.Duration(rounds)*u.cfg.FullRound() + time.Duration(hours)*time.Hour + time.Duration(days)*rules.Day
	s, err := u.state(req)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Pass(s, d, u.cfg)
	if err != nil {
		return kit.Response{}, u.fail("ulm rest", err, ulmRestExample)
	}
	target, err := u.who(req, "target", ulmUserName(req.User))
	if err != nil {
		return kit.Response{}, err
	}
	result := &ulmRestResult{
		Outcome: kit.Outcome{Total: res.Faded()}, Target: target, Minutes: int(d / time.Minute), Days: res.Days,
		FadedHoly: res.FadedHoly, FadedSpite: res.FadedSpite, ShockEnded: res.ShockEnded, WokeUp: res.WokeUp,
		MaimFixed: res.MaimFixed, VulnerableEnded: res.VulnerableEnded, State: newUlmState(res.State, u.cfg),
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** rests %s", kit.EscapeMarkdown(target), ulmRestText(rounds, hours, days))
	var notes []string
	if res.Faded() > 0 {
		notes = append(notes, fmt.Sprintf("%d Holy and %d Spite damage fade", res.FadedHoly, res.FadedSpite))
	}
	if res.ShockEnded {
		notes = append(notes, "Shock ends")
	}
	if res.WokeUp {
		notes = append(notes, "no longer Knocked Out")
	}
	if res.MaimFixed {
		notes = append(notes, "the Maim can no longer be reversed")
	}
	if res.VulnerableEnded {
		notes = append(notes, "no longer Vulnerable")
	}
	if len(notes) > 0 {
		b.WriteString(": " + strings.Join(notes, "; "))
	}
	b.WriteString("; " + ulmStatusLine(res.State, u.cfg))
	return h.ulmReply(ctx, req, u, "ulm rest", &result.Outcome, result, b.String())
}

func ulmRestText(rounds, hours, days int64) string {
	var parts []string
	if days > 0 {
		parts = append(parts, ulmPlural(int(days), "day"))
	}
	if hours > 0 {
		parts = append(parts, ulmPlural(int(hours), "hour"))
	}
	if rounds > 0 {
		parts = append(parts, ulmPlural(int(rounds), "Full Round"))
	}
	return strings.Join(parts, ", ")
}
