package burst

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// The options /burst's subcommands share. Integer option names are the
// stat names of a burst character sheet (see docs/rules.md), so a sheet
// fills in what the user does not type.
var (
	burstCharges    = kit.Option{Type: kit.Integer, Name: "charges", Description: "Charges: each steps bonus dice up (d12, d20)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxSteps)}
	burstChallenges = kit.Option{Type: kit.Integer, Name: "challenges", Description: "Challenges: each steps bonus dice down (d8, d6, d4)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxSteps)}
	burstWounded    = kit.Option{Type: kit.Boolean, Name: "wounded", Description: "Wounded: bonus dice a step down"}
	burstPrivate    = kit.Option{Type: kit.Boolean, Name: "private", Description: "Only you see the result"}
	burstVigor      = kit.Option{Type: kit.Integer, Name: "vigor", Description: "Your Vigor now, to pay the cost", MinValue: kit.Float(0)}
)

// burstBonusDice is the `bonus:` option, described by where its default
// comes from.
func burstBonusDice(desc string) kit.Option {
	return kit.Option{Type: kit.Integer, Name: "bonus", Description: desc, MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)}
}

func burstChoices(names []string, skipFirst bool) []kit.Choice {
	if skipFirst {
		names = names[1:]
	}
	out := make([]kit.Choice, len(names))
	for i, n := range names {
		out[i] = kit.Choice{Name: n, Value: n}
	}
	return out
}

var burstCommand = kit.Command{
	Name:        "burst",
	Description: "Burst rules: d20 + bonus dice that burst, Guard, damage, Durability",
	Options: []kit.Option{
		{Type: kit.SubCommand, Name: "roll", Description: "Action roll: 1d20 + bonus dice against a victory sum (VS)", Options: []kit.Option{
			{Type: kit.Integer, Name: "vs", Description: "The victory sum to reach", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxVS)},
			burstBonusDice("Bonus dice (default: the sheet's stat:)"),
			{Type: kit.String, Name: "stat", Description: "Sheet stat giving the bonus dice, e.g. agility", MaxLength: 32},
			{Type: kit.Boolean, Name: "resist", Description: "A Resistance check: add your resistance dice"},
			{Type: kit.Integer, Name: "resistance", Description: "General Resistance bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			burstCharges, burstChallenges, burstWounded,
			{Type: kit.String, Name: "visibility", Description: "Piloting or navigating by sight in: VS penalty", Choices: burstChoices(rules.Visibilities(), true)},
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "initiative", Description: "Initiative: 1d20 + bonus dice; actions in the first round", Options: []kit.Option{
			burstBonusDice("Bonus dice (default: sheet initiative)"),
			burstCharges, burstChallenges, burstWounded,
			{Type: kit.String, Name: "watch", Description: "Over Watch: attack from the expected vector or another", Choices: burstChoices(rules.Watches(), true)},
			{Type: kit.String, Name: "ambush", Description: "Your side of an ambush", Choices: burstChoices(rules.Ambushes(), true)},
			{Type: kit.Integer, Name: "actions", Description: "Actions a turn (default: sheet, else 2)", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxActions)},
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "attack", Description: "Attack roll against Guard; the target may roll Defense", Options: []kit.Option{
			burstBonusDice("Bonus dice (default: sheet agility, soul or speed)"),
			{Type: kit.String, Name: "with", Description: "Weapon, unarmed, spell or technique", Choices: burstChoices([]string{"weapon", "unarmed", "spell", "technique"}, false)},
			{Type: kit.Integer, Name: "guard", Description: "Target's Guard: 15 + armor and abilities", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxGuard)},
			{Type: kit.Boolean, Name: "behind", Description: "From behind an unaware target: Guard halved"},
			{Type: kit.Boolean, Name: "ranged", Description: "An attack at range"},
			{Type: kit.Boolean, Name: "area", Description: "An area attack (light cover does not count)"},
			{Type: kit.String, Name: "cover", Description: "Target's cover (ranged)", Choices: burstChoices(rules.Covers(), true)},
			{Type: kit.String, Name: "size", Description: "Your size (default medium)", Choices: burstChoices(rules.Sizes(), false)},
			{Type: kit.String, Name: "target_size", Description: "Target's size (default medium)", Choices: burstChoices(rules.Sizes(), false)},
			{Type: kit.String, Name: "visibility", Description: "Visibility (ranged)", Choices: burstChoices(rules.Visibilities(), true)},
			{Type: kit.Integer, Name: "range", Description: "Distance in feet, for visibility limits", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Boolean, Name: "prone", Description: "Target is prone"},
			{Type: kit.Boolean, Name: "offhand", Description: "Off-hand attack: 8 Vigor, 2 challenges"},
			{Type: kit.Boolean, Name: "opening", Description: "Take Opening reaction: 5 Vigor"},
			burstVigor,
			{Type: kit.Integer, Name: "defense", Description: "Target's Speed dice: it rolls Defense if hit", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			burstCharges, burstChallenges, burstWounded,
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "defend", Description: "Defense reaction: 1d20 + Speed dice, must beat the attack", Options: []kit.Option{
			{Type: kit.Integer, Name: "attack", Description: "The attack roll to beat", Required: true, MinValue: kit.Float(1), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "speed", Description: "Speed bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.Boolean, Name: "prone", Description: "You are prone: Speed dice a quarter"},
			{Type: kit.Boolean, Name: "defending", Description: "You took the Defend action: costs 2 less"},
			burstVigor,
			burstCharges, burstChallenges, burstWounded,
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "damage", Description: "Damage dice by quality + Strength/Skill dice, less armor", Options: []kit.Option{
			{Type: kit.Integer, Name: "count", Description: "Damage value: how many dice (unarmed: 1)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.String, Name: "rank", Description: "Weapon quality (unarmed: feeble)", Choices: burstChoices(rules.Qualities(), false)},
			{Type: kit.String, Name: "kind", Description: "Weapon kind: adds Strength or Skill dice", Choices: burstChoices(rules.WeaponKinds(), false)},
			{Type: kit.Integer, Name: "strength", Description: "Strength bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.Integer, Name: "skill", Description: "Skill bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.String, Name: "type", Description: "Damage type (default kinetic)", Choices: burstChoices(rules.DamageTypes(), false)},
			{Type: kit.Integer, Name: "armor", Description: "Target's worn Armor Rank", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxArmor)},
			{Type: kit.String, Name: "armor_quality", Description: "Its quality (default ordinary)", Choices: burstChoices(rules.Qualities(), false)},
			{Type: kit.Integer, Name: "other_armor", Description: "Another Armor Rank (natural...): highest counts", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxArmor)},
			{Type: kit.Boolean, Name: "sealed", Description: "Armor stated to stop every damage type"},
			{Type: kit.String, Name: "cover", Description: "Target's cover against this ranged attack", Choices: burstChoices(rules.Covers(), true)},
			{Type: kit.String, Name: "durability", Description: "Target's superior Durability", Choices: burstChoices(rules.Qualities()[rules.Heroic:], false)},
			{Type: kit.Boolean, Name: "object", Description: "Target is an object"},
			{Type: kit.Boolean, Name: "offhand", Description: "Off-hand attack: 2 challenges"},
			burstCharges,
			{Type: kit.Integer, Name: "challenges", Description: "Challenges the rules put on damage", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxSteps)},
			burstWounded,
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "move", Description: "Move actions: 1 foot per point of Speed Score each", Options: []kit.Option{
			{Type: kit.Integer, Name: "speed_score", Description: "Speed Score (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(100000)},
			{Type: kit.Integer, Name: "moves", Description: "Move actions taken (default 1)", MinValue: kit.Float(1), MaxValue: kit.Float(rules.MaxActions)},
			{Type: kit.Boolean, Name: "prone", Description: "Prone: a quarter of your Speed"},
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "hurt", Description: "Apply damage to Durability, then Health, then Shock", Options: []kit.Option{
			{Type: kit.Integer, Name: "damage", Description: "Damage taken (after armor)", Required: true, MinValue: kit.Float(0), MaxValue: kit.Float(1000000)},
			{Type: kit.Integer, Name: "durability", Description: "Durability now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "health", Description: "Health now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "stamina", Description: "Stamina: rounds to live in Shock (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "shock", Description: "Already in Shock"},
			{Type: kit.Boolean, Name: "object", Description: "An object: Durability only"},
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "recover", Description: "Recovery Phase at the end of a round: Vigor and more", Options: []kit.Option{
			{Type: kit.Integer, Name: "stamina", Description: "Stamina (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "vigor", Description: "Vigor now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_vigor", Description: "Most Vigor (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "winded", Description: "Winded (always at 0 Vigor)"},
			{Type: kit.Integer, Name: "durability", Description: "Durability now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_durability", Description: "Most Durability (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "regen", Description: "Durability a special ability restores", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "health", Description: "Health now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "health_regen", Description: "Health a special ability restores", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "mana", Description: "Mana now (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "mana_regen", Description: "Mana a special ability restores", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_mana", Description: "Most Mana (default: sheet)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "shock", Description: "In Shock (0 Health)"},
			{Type: kit.Integer, Name: "rounds", Description: "In Shock: rounds left (default: Stamina)", MinValue: kit.Float(0)},
			{Type: kit.Boolean, Name: "stable", Description: "In Shock but stabilised"},
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "stabilise", Description: "Medicine check VS 20 to stabilise a creature in Shock", Options: []kit.Option{
			{Type: kit.Integer, Name: "medicine", Description: "Medicine bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			burstCharges, burstChallenges, burstWounded,
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
		{Type: kit.SubCommand, Name: "aid", Description: "Emergency aid, 2 actions: Medicine VS 20 restores 1d10 Durability", Options: []kit.Option{
			{Type: kit.Integer, Name: "medicine", Description: "Medicine bonus dice (default: sheet)", MinValue: kit.Float(0), MaxValue: kit.Float(rules.MaxBonusDice)},
			{Type: kit.Integer, Name: "durability", Description: "Patient's Durability now", MinValue: kit.Float(0)},
			{Type: kit.Integer, Name: "max_durability", Description: "Patient's most Durability", MinValue: kit.Float(0)},
			burstCharges, burstChallenges, burstWounded,
			kit.DiceOption, kit.CharacterOption, burstPrivate,
		}},
	},
}

// burstSubcommands are the subcommands, each with the `character:` option.
var burstSubcommands = []struct {
	name string
	h    func(*handlers) kit.Handler
}{
	{"roll", func(h *handlers) kit.Handler { return h.burstRoll }},
	{"initiative", func(h *handlers) kit.Handler { return h.burstInitiative }},
	{"attack", func(h *handlers) kit.Handler { return h.burstAttack }},
	{"defend", func(h *handlers) kit.Handler { return h.burstDefend }},
	{"damage", func(h *handlers) kit.Handler { return h.burstDamage }},
	{"move", func(h *handlers) kit.Handler { return h.burstMove }},
	{"hurt", func(h *handlers) kit.Handler { return h.burstHurt }},
	{"recover", func(h *handlers) kit.Handler { return h.burstRecover }},
	{"stabilise", func(h *handlers) kit.Handler { return h.burstStabilise }},
	{"aid", func(h *handlers) kit.Handler { return h.burstAid }},
}

// registerBurst adds /burst, the rules of seed burst (see rules/burst).
func (h *handlers) registerBurst(r *kit.Router) {
	r.Define(burstCommand)
	for _, s := range burstSubcommands {
		r.Route("burst/"+s.name, s.h(h), false)
		r.RouteAutocomplete("burst/"+s.name, "character", h.SuggestCharacters)
	}
}

// burstCall is what every /burst handler starts from.
type burstCall struct {
	sheet kit.Sheet
	t     *kit.Tray
	cfg   rules.Config
	who   string // the actor's name, escaped for markdown
}

func (h *handlers) burstStart(ctx context.Context, req *kit.Request) (burstCall, error) {
	cfg := h.config()
	if err := cfg.Validate(); err != nil {
		// The operator's configuration, not the user's mistake.
		return burstCall{}, fmt.Errorf("config [burst]: %w", err)
	}
	sheet, err := h.Sheet(ctx, req, "burst")
	if err != nil {
		return burstCall{}, err
	}
	t, err := h.Tray(req)
	if err != nil {
		return burstCall{}, err
	}
	who := kit.DisplayName(req.User)
	if sheet.Name() != "" {
		who = kit.EscapeMarkdown(sheet.Name())
	}
	return burstCall{sheet: sheet, t: t, cfg: cfg, who: who}, nil
}

// burstErr turns an error of rules/burst into what the user sees: an
// impossible input is the user's mistake, shown with a correct example; a
// failure of the dice keeps its own kind (a `dice:` value that does not fit
// is already a *UserError, anything else is ours).
func BurstErr(err error, example string) error {
	var de *rules.DiceError
	if errors.As(err, &de) {
		if ue, ok := kit.AsUserError(err); ok {
			return ue // the user's dice: value; the rules' expression adds nothing for them
		}
		return err
	}
	return &kit.UserError{Msg: fmt.Sprintf("%s (example: %s)", err, example), Err: err}
}

// burstFlag reads a yes/no state: the option when given, else the sheet's
// stat of the same name as 0 or 1 (a sheet holds numbers: wounded=1).
func burstFlag(req *kit.Request, s kit.Sheet, name string) bool {
	if req.Options.Has(name) {
		return req.Options.Bool(name)
	}
	v, _ := s.Stat(req, name)
	return v != 0
}

// burstBonus reads the charges, challenges and wounds that step n bonus
// dice.
func burstBonus(req *kit.Request, s kit.Sheet, n int) rules.Bonus {
	charges, _ := req.Options.Int("charges")
	challenges, _ := req.Options.Int("challenges")
	return rules.Bonus{Dice: n, Charges: int(charges), Challenges: int(challenges), Wounded: burstFlag(req, s, "wounded")}
}

// burstDiceFrom reads bonus dice from the option when given, else the
// sheet's stat, else it is the user's mistake.
func burstDiceFrom(req *kit.Request, s kit.Sheet, option, stat, example string) (int, error) {
	if n, ok := req.Options.Int(option); ok {
		return int(n), nil
	}
	if v, ok := s.Stat(req, stat); ok {
		return v, nil
	}
	if s.Name() != "" {
		return 0, kit.Errorf("/%s needs %s bonus dice: give %s:<number>, or add %s to %s's sheet with /character set name:%s stats:\"%s=2\"",
			strings.ReplaceAll(req.Path, "/", " "), stat, option, stat, s.Name(), s.Name(), stat)
	}
	return 0, kit.Errorf("/%s needs %s bonus dice: give %s:<number>, or character:<name> to read them from a sheet (example: %s)",
		strings.ReplaceAll(req.Path, "/", " "), stat, option, example)
}

// burstPick parses a choice option with parse; a bad value (typed in the
// console, or from an old client) is the user's mistake.
func burstPick[T any](req *kit.Request, name string, parse func(string) (T, error), example string) (T, error) {
	v, err := parse(req.Options.String(name))
	if err != nil {
		var zero T
		return zero, &kit.UserError{Msg: fmt.Sprintf("%s (example: %s)", err, example), Err: err}
	}
	return v, nil
}

// burstVigorOf returns the Vigor to pay a cost from: the option, else the
// sheet's vigor, else nil (not tracked).
func burstVigorOf(req *kit.Request, s kit.Sheet) *int {
	if v, ok := s.Stat(req, "vigor"); ok {
		return &v
	}
	return nil
}

// burstDice is what every roll of the action die and bonus dice shows.
type burstDice struct {
	Action    int `json:"action,omitempty"`
	BonusDice int `json:"bonus_dice"`
	Die       int `json:"die,omitempty"` // sides of the bonus dice after charges, challenges and wounds
	Bursts    int `json:"bursts"`
}

func newBurstDice(r rules.Roll) burstDice {
	return burstDice{Action: r.Action, BonusDice: r.BonusDice, Die: r.BonusSides, Bursts: r.Bursts}
}

// burstsNote is the reply's note of bursting dice, "" for none.
func burstsNote(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " · 💥 1 die burst"
	}
	return fmt.Sprintf(" · 💥 %d dice burst", n)
}

// burstVerdict words a margin: "success by 7", "failure by 3", and a total
// that meets its sum exactly "success, exactly".
func burstVerdict(ok bool, margin int, yes, no string) string {
	switch {
	case ok && margin == 0:
		return yes + ", exactly"
	case ok:
		return fmt.Sprintf("%s by %d", yes, margin)
	}
	return fmt.Sprintf("%s by %d", no, -margin)
}

// burstArticle returns "a" or "an" for word.
func burstArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// burstReply is the reply: the outcome line, the dice, the roll's ID.
func burstReply(req *kit.Request, c burstCall, line string, o *kit.Outcome, result any) kit.Response {
	var b strings.Builder
	b.WriteString(line)
	if bd := c.t.Breakdown(); bd != "" {
		b.WriteString("\n" + bd)
	}
	if o.ID != "" {
		b.WriteString("\n-# roll " + o.ID)
	}
	return kit.Response{Content: b.String(), Ephemeral: req.Options.Bool("private"), Result: result}
}

type burstRollResult struct {
	kit.Outcome
	burstDice
	VS      int `json:"vs"`
	Penalty int `json:"penalty,omitempty"`
}

// burstRollOptions are the roll subcommand's own options, which a stat:
// must not name (Sheet.Stat reads an option of the same name first).
var burstRollOptions = []string{"vs", "bonus", "resistance", "charges", "challenges"}

func (h *handlers) burstRoll(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst roll vs:15 bonus:2"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	vs, _ := req.Options.Int("vs")
	n, label := 0, "bonus"
	if stat := strings.ToLower(strings.TrimSpace(req.Options.String("stat"))); stat != "" {
		if !kit.StatNameRE.MatchString(stat) || slices.Contains(burstRollOptions, stat) {
			return kit.Response{}, kit.Errorf("stat:%s is not a sheet stat name (example: /burst roll vs:15 stat:agility character:Rex)", stat)
		}
		label = stat
		if n, err = burstDiceFrom(req, c.sheet, "bonus", stat, example); err != nil {
			return kit.Response{}, err
		}
	} else if v, ok := req.Options.Int("bonus"); ok {
		n = int(v)
	}
	if req.Options.Bool("resist") || req.Options.Has("resistance") {
		n = rules.ResistanceDice(n, c.sheet.Or(req, "resistance", 0))
		label += "+resistance"
	}
	vis, err := burstPick(req, "visibility", rules.ParseVisibility, "/burst roll vs:15 bonus:2 visibility:low")
	if err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Check(rules.CheckInput{Bonus: burstBonus(req, c.sheet, n), Label: label, VS: int(vs), Visibility: vis}, c.cfg, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := burstRollResult{Outcome: kit.Outcome{Total: res.Roll.Total}, burstDice: newBurstDice(res.Roll), VS: res.VS, Penalty: res.Penalty}
	out.Succeeded(res.Success, res.Margin)
	if err := h.Finish(ctx, req, c.t, "burst roll", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	vsText := fmt.Sprint(res.VS)
	if res.Penalty > 0 {
		vsText = fmt.Sprintf("%d (%d + %d %s visibility)", res.VS, vs, res.Penalty, vis)
	}
	line := fmt.Sprintf("**%s**: %d vs %s: %s%s", c.who, res.Roll.Total, vsText, burstVerdict(res.Success, res.Margin, "success", "failure"), burstsNote(res.Roll.Bursts))
	return burstReply(req, c, line, &out.Outcome, out), nil
}

type burstInitiativeResult struct {
	kit.Outcome
	burstDice
	WatchDice  int  `json:"watch_dice"`
	Ambushed   bool `json:"ambushed"`
	Actions    int  `json:"actions"`
	FirstRound int  `json:"first_round"`
}

func (h *handlers) burstInitiative(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst initiative bonus:1 ambush:ambusher"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	n := c.sheet.Or(req, "initiative", 0)
	if v, ok := req.Options.Int("bonus"); ok {
		n = int(v)
	}
	watch, err := burstPick(req, "watch", rules.ParseWatch, "/burst initiative watch:expected")
	if err != nil {
		return kit.Response{}, err
	}
	ambush, err := burstPick(req, "ambush", rules.ParseAmbush, example)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Initiative(rules.InitiativeInput{Bonus: burstBonus(req, c.sheet, n), Actions: c.sheet.Or(req, "actions", 0), Ambush: ambush, Watch: watch}, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := burstInitiativeResult{Outcome: kit.Outcome{Total: res.Roll.Total}, burstDice: newBurstDice(res.Roll),
		WatchDice: res.WatchDice, Ambushed: res.Ambushed, Actions: res.Actions, FirstRound: res.FirstRound}
	if err := h.Finish(ctx, req, c.t, "burst initiative", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	first := ""
	switch {
	case res.Ambushed:
		first = ", only 1 in the first round (ambushed)"
	case ambush == rules.Ambusher:
		first = fmt.Sprintf(", %d in the first round (ambusher)", res.FirstRound)
	case res.WatchDice > 0:
		first = " (+1 bonus die: Over Watch)"
	}
	line := fmt.Sprintf("**%s**: initiative %d · %d actions a turn%s%s", c.who, res.Roll.Total, res.Actions, first, burstsNote(res.Roll.Bursts))
	return burstReply(req, c, line, &out.Outcome, out), nil
}

type burstDefenseInfo struct {
	Total     int  `json:"total"`
	Success   bool `json:"success"`
	Margin    int  `json:"margin"`
	SpeedDice int  `json:"speed_dice"`
	Die       int  `json:"die,omitempty"`
	Bursts    int  `json:"bursts"`
	VigorCost int  `json:"vigor_cost"`
}

type BurstAttackResult struct {
	kit.Outcome
	burstDice
	Challenges  int               `json:"challenges"`
	Guard       int               `json:"guard"` // the number to beat, visibility penalty included
	GuardDetail rules.GuardResult `json:"guard_detail"`
	Hit         bool              `json:"hit"`
	GuardMargin int               `json:"guard_margin"`
	Defense     *burstDefenseInfo `json:"defense,omitempty"`
	VigorCost   int               `json:"vigor_cost"`
	Vigor       *int              `json:"vigor,omitempty"`
	Winded      bool              `json:"winded,omitempty"`
}

func (h *handlers) burstAttack(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst attack bonus:2 guard:15"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	stat, err := rules.AttackStat(req.Options.String("with"))
	if err != nil {
		return kit.Response{}, BurstErr(err, "/burst attack bonus:2 with:spell")
	}
	n, err := burstDiceFrom(req, c.sheet, "bonus", stat, example)
	if err != nil {
		return kit.Response{}, err
	}
	gi := rules.GuardInput{Guard: rules.BaseGuard, Behind: req.Options.Bool("behind"), Ranged: req.Options.Bool("ranged"), Area: req.Options.Bool("area")}
	if v, ok := req.Options.Int("guard"); ok {
		gi.Guard = int(v)
	}
	if v, ok := req.Options.Int("range"); ok {
		if !gi.Ranged {
			return kit.Response{}, kit.Errorf("range: is for attacks at range (example: /burst attack bonus:2 ranged:true range:120 visibility:low)")
		}
		gi.Feet = int(v)
	}
	if gi.Cover, err = burstPick(req, "cover", rules.ParseCover, "/burst attack bonus:2 ranged:true cover:partial"); err != nil {
		return kit.Response{}, err
	}
	if gi.Size, err = burstPick(req, "size", rules.ParseSize, "/burst attack bonus:2 size:large target_size:small"); err != nil {
		return kit.Response{}, err
	}
	if gi.TargetSize, err = burstPick(req, "target_size", rules.ParseSize, "/burst attack bonus:2 target_size:tiny"); err != nil {
		return kit.Response{}, err
	}
	if gi.Visibility, err = burstPick(req, "visibility", rules.ParseVisibility, "/burst attack bonus:2 ranged:true visibility:low"); err != nil {
		return kit.Response{}, err
	}
	in := rules.AttackInput{
		Bonus: burstBonus(req, c.sheet, n), Label: stat, Guard: gi,
		Prone: req.Options.Bool("prone"), OffHand: req.Options.Bool("offhand"), Opening: req.Options.Bool("opening"),
		Vigor: burstVigorOf(req, c.sheet),
	}
	if v, ok := req.Options.Int("defense"); ok {
		in.Defense = &rules.DefenseInput{Speed: int(v)}
	}
	res, err := rules.Attack(in, c.cfg, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := BurstAttackResult{
		Outcome: kit.Outcome{Total: res.Roll.Total}, burstDice: newBurstDice(res.Roll), Challenges: res.Challenges,
		Guard: res.Guard.Target, GuardDetail: res.Guard, Hit: res.Hit, GuardMargin: res.GuardMargin,
		VigorCost: res.VigorCost, Vigor: res.Vigor, Winded: res.Winded,
	}
	out.Succeeded(res.Success, res.Margin)
	if d := res.Defense; d != nil {
		out.Defense = &burstDefenseInfo{Total: d.Roll.Total, Success: d.Success, Margin: d.Margin, SpeedDice: d.SpeedDice, Die: d.Roll.BonusSides, Bursts: d.Roll.Bursts, VigorCost: d.VigorCost}
	}
	if err := h.Finish(ctx, req, c.t, "burst attack", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	return burstReply(req, c, burstAttackLine(c.who, res), &out.Outcome, out), nil
}

func burstAttackLine(who string, res rules.AttackResult) string {
	g := res.Guard
	guard := fmt.Sprintf("Guard %d", g.Guard)
	if g.Behind || g.Size > 0 || g.Cover > 0 {
		why := fmt.Sprint(g.Base)
		if g.Behind {
			why += " halved from behind"
		}
		if g.Size > 0 {
			why += fmt.Sprintf(" + %d size", g.Size)
		}
		if g.Cover > 0 {
			why += fmt.Sprintf(" + %d cover", g.Cover)
		}
		guard += " (" + why + ")"
	}
	if g.Visibility > 0 {
		guard += fmt.Sprintf(" + %d visibility", g.Visibility)
	}
	line := fmt.Sprintf("**%s**: %d vs %s: %s", who, res.Roll.Total, guard, burstVerdict(res.Hit, res.GuardMargin, "hit", "miss"))
	if res.GuardMargin == 0 {
		line = fmt.Sprintf("**%s**: %d vs %s: miss (a tie does not beat Guard)", who, res.Roll.Total, guard)
	}
	if d := res.Defense; d != nil {
		if d.Success {
			line += fmt.Sprintf("; Defense %d: evaded by %d", d.Roll.Total, d.Margin)
		} else {
			line += fmt.Sprintf("; Defense %d fails, the hit stands", d.Roll.Total)
		}
	}
	switch {
	case res.Challenges == 1:
		line += " · 1 challenge"
	case res.Challenges > 1:
		line += fmt.Sprintf(" · %d challenges", res.Challenges)
	}
	if res.VigorCost > 0 {
		line += fmt.Sprintf(" · %d Vigor", res.VigorCost)
		if res.Vigor != nil {
			line += fmt.Sprintf(" (%d left)", *res.Vigor)
		}
	}
	if res.Winded {
		line += " · winded"
	}
	return line + burstsNote(res.Roll.Bursts)
}

type burstDefendResult struct {
	kit.Outcome
	burstDice
	Attack    int  `json:"attack"`
	VigorCost int  `json:"vigor_cost"`
	Vigor     *int `json:"vigor,omitempty"`
	Winded    bool `json:"winded,omitempty"`
}

func (h *handlers) burstDefend(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst defend attack:18 speed:2"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	speed, err := burstDiceFrom(req, c.sheet, "speed", "speed", example)
	if err != nil {
		return kit.Response{}, err
	}
	attack, _ := req.Options.Int("attack")
	b := burstBonus(req, c.sheet, speed)
	res, err := rules.Defend(rules.DefenseInput{
		Attack: int(attack), Speed: speed, Charges: b.Charges, Challenges: b.Challenges, Wounded: b.Wounded,
		Prone: req.Options.Bool("prone"), Defending: req.Options.Bool("defending"), Vigor: burstVigorOf(req, c.sheet),
	}, c.cfg, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := burstDefendResult{Outcome: kit.Outcome{Total: res.Roll.Total}, burstDice: newBurstDice(res.Roll), Attack: res.Attack, VigorCost: res.VigorCost, Vigor: res.Vigor, Winded: res.Winded}
	out.Succeeded(res.Success, res.Margin)
	if err := h.Finish(ctx, req, c.t, "burst defend", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	var v string
	switch {
	case res.Success:
		v = fmt.Sprintf("evaded by %d", res.Margin)
	case res.Margin == 0:
		v = "tie, the strike hits (ties go to the attacker)"
	default:
		v = fmt.Sprintf("the strike hits (short by %d)", -res.Margin)
	}
	line := fmt.Sprintf("**%s**: Defense %d vs attack %d: %s · %d Vigor", c.who, res.Roll.Total, res.Attack, v, res.VigorCost)
	if res.Vigor != nil {
		line += fmt.Sprintf(" (%d left)", *res.Vigor)
	}
	if res.Winded {
		line += " · winded"
	}
	return burstReply(req, c, line+burstsNote(res.Roll.Bursts), &out.Outcome, out), nil
}

type BurstDamageResult struct {
	kit.Outcome
	rules.DamageResult
	Quality string `json:"quality"`
}

func (h *handlers) burstDamage(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst damage count:2 rank:ordinary strength:1 armor:3"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	kind := req.Options.String("kind")
	if kind == "" {
		kind = "melee" // "an ordinary sword deals d8": the text's own first example
	}
	stat, err := rules.WeaponStat(kind)
	if err != nil {
		return kit.Response{}, BurstErr(err, "/burst damage count:2 rank:ordinary kind:crossbow skill:1")
	}
	for _, other := range []string{"strength", "skill"} {
		if other != stat && req.Options.Has(other) {
			verb := "adds no bonus dice"
			if stat != "" {
				verb = "adds " + stat + " dice"
			}
			return kit.Response{}, kit.Errorf("%s attack %s, not %s (example: %s)", burstArticle(kind), verb, other, example)
		}
	}
	in := rules.DamageInput{Count: rules.UnarmedCount, Quality: rules.UnarmedQuality, BonusLabel: stat, OffHand: req.Options.Bool("offhand"),
		Sealed: req.Options.Bool("sealed"), Object: req.Options.Bool("object"), Durability: rules.Feeble, ArmorQuality: rules.Ordinary}
	if v, ok := req.Options.Int("count"); ok {
		in.Count = int(v)
	} else if kind != "unarmed" {
		return kit.Response{}, kit.Errorf("/burst damage needs count: the weapon's damage value (example: %s)", example)
	}
	if req.Options.Has("rank") {
		if in.Quality, err = burstPick(req, "rank", rules.ParseQuality, example); err != nil {
			return kit.Response{}, err
		}
	} else if kind != "unarmed" {
		return kit.Response{}, kit.Errorf("/burst damage needs rank: the weapon's quality, feeble to legendary (example: %s)", example)
	}
	n := 0
	if stat != "" {
		if n, err = burstDiceFrom(req, c.sheet, stat, stat, example); err != nil {
			return kit.Response{}, err
		}
	}
	in.Bonus = burstBonus(req, c.sheet, n)
	if in.Type, err = burstPick(req, "type", rules.ParseDamageType, "/burst damage count:2 rank:heroic strength:1 type:thermal"); err != nil {
		return kit.Response{}, err
	}
	if req.Options.Has("armor_quality") {
		if in.ArmorQuality, err = burstPick(req, "armor_quality", rules.ParseQuality, "/burst damage count:2 rank:heroic strength:1 armor:3 armor_quality:feeble"); err != nil {
			return kit.Response{}, err
		}
	}
	if req.Options.Has("durability") {
		if in.Durability, err = burstPick(req, "durability", rules.ParseQuality, "/burst damage count:2 rank:epic strength:1 durability:heroic"); err != nil {
			return kit.Response{}, err
		}
	}
	if in.Cover, err = burstPick(req, "cover", rules.ParseCover, "/burst damage count:2 rank:ordinary skill:1 kind:crossbow cover:partial"); err != nil {
		return kit.Response{}, err
	}
	armor, _ := req.Options.Int("armor")
	other, _ := req.Options.Int("other_armor")
	in.Armor, in.OtherArmor = int(armor), int(other)
	res, err := rules.Damage(in, c.cfg, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := BurstDamageResult{Outcome: kit.Outcome{Total: res.Roll.Total}, DamageResult: res, Quality: in.Quality.String()}
	if err := h.Finish(ctx, req, c.t, "burst damage", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	return burstReply(req, c, burstDamageLine(c.who, in, res), &out.Outcome, out), nil
}

func burstDamageLine(who string, in rules.DamageInput, res rules.DamageResult) string {
	line := fmt.Sprintf("**%s**: %d %s damage", who, res.Damage, res.Type)
	var why []string
	switch {
	case res.Immune && in.Object:
		why = append(why, fmt.Sprintf("rolled %d, but %s damage only harms living creatures", res.Roll.Total, res.Type))
	case res.Immune:
		why = append(why, fmt.Sprintf("rolled %d, but %s Durability is immune to %s weapon", res.Roll.Total, in.Durability, burstArticle(in.Quality.String())))
	case !res.ArmorApplies && in.Armor+in.OtherArmor > 0:
		why = append(why, fmt.Sprintf("rolled %d; armor does not stop %s", res.Roll.Total, res.Type))
	case res.ArmorRank > 0:
		why = append(why, fmt.Sprintf("%d rolled − Armor Rank %d", res.Roll.Total, res.ArmorRank))
	}
	if res.ArmorIgnored {
		why = append(why, fmt.Sprintf("%s weapon ignores %s armor", burstArticle(in.Quality.String()), in.ArmorQuality))
	}
	if res.ArmorDamage > 0 {
		why = append(why, fmt.Sprintf("the armor takes %d", res.ArmorDamage))
	}
	if res.ArmorImmune && res.Soaked > 0 {
		why = append(why, fmt.Sprintf("%s armor takes no damage from %s weapon", in.ArmorQuality, burstArticle(in.Quality.String())))
	}
	if len(why) > 0 {
		line += " (" + strings.Join(why, "; ") + ")"
	}
	if res.Critical {
		line += " · 💥 critical hit!"
	}
	return line
}

type burstHurtResult struct {
	kit.Outcome
	rules.HurtResult
}

func (h *handlers) burstHurt(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst hurt damage:8 durability:10 health:8 stamina:3"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	damage, _ := req.Options.Int("damage")
	tr := rules.Track{Object: burstFlag(req, c.sheet, "object"), Shock: burstFlag(req, c.sheet, "shock")}
	if tr.Durability, err = c.sheet.Need(req, "durability"); err != nil {
		return kit.Response{}, err
	}
	if !tr.Object {
		if tr.Health, err = c.sheet.Need(req, "health"); err != nil {
			return kit.Response{}, err
		}
	}
	res, err := rules.Hurt(tr, int(damage), c.sheet.Or(req, "stamina", 0), c.cfg)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	if err := c.t.Done(); err != nil {
		return kit.Response{}, err
	}
	out := burstHurtResult{Outcome: kit.Outcome{Total: res.Damage, Rolls: c.t.Rolls()}, HurtResult: res}
	return burstReply(req, c, burstHurtLine(c.who, res), &out.Outcome, out), nil
}

func burstHurtLine(who string, res rules.HurtResult) string {
	b, a := res.Before, res.After
	parts := []string{}
	if res.Killed {
		return fmt.Sprintf("**%s** takes %d damage in Shock: killed outright", who, res.Damage)
	}
	if res.ToDurability > 0 || a.Object {
		parts = append(parts, fmt.Sprintf("Durability %d → %d", b.Durability, a.Durability))
	}
	if res.Destroyed {
		parts = append(parts, "destroyed beyond meaningful use")
	}
	if res.BecameWounded {
		parts = append(parts, "wounded (bonus dice a step down)")
	}
	if res.ToHealth > 0 {
		parts = append(parts, fmt.Sprintf("Health %d → %d", b.Health, a.Health))
	}
	if res.WentIntoShock {
		rounds := "a number of rounds equal to Stamina"
		if a.ShockRounds > 0 {
			rounds = fmt.Sprintf("%d rounds", a.ShockRounds)
		}
		parts = append(parts, "in Shock, unconscious: dies in "+rounds+" unless stabilised (Medicine VS 20)")
	}
	if res.Damage == 0 {
		parts = append(parts, "no harm done")
	}
	return fmt.Sprintf("**%s** takes %d damage: %s", who, res.Damage, strings.Join(parts, "; "))
}

type burstRecoverResult struct {
	kit.Outcome
	Vigor            int  `json:"vigor"`
	VigorGained      int  `json:"vigor_gained"`
	Winded           bool `json:"winded"`
	Durability       *int `json:"durability,omitempty"`
	DurabilityGained int  `json:"durability_gained"`
	Health           *int `json:"health,omitempty"`
	HealthGained     int  `json:"health_gained"`
	Mana             *int `json:"mana,omitempty"`
	ManaGained       int  `json:"mana_gained"`
	Shock            bool `json:"shock"`
	ShockRounds      int  `json:"shock_rounds,omitempty"`
	Stable           bool `json:"stable,omitempty"`
	Died             bool `json:"died"`
	Woke             bool `json:"woke"`
}

func (h *handlers) burstRecover(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst recover stamina:12 vigor:3"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	s := c.sheet
	in := rules.RecoverInput{
		MaxVigor: s.Or(req, "max_vigor", 0), Winded: burstFlag(req, s, "winded"),
		DurabilityRegen: s.Or(req, "regen", 0), MaxDurability: s.Or(req, "max_durability", 0),
		HealthRegen: s.Or(req, "health_regen", 0), ManaRegen: s.Or(req, "mana_regen", 0), MaxMana: s.Or(req, "max_mana", 0),
	}
	if in.Stamina, err = s.Need(req, "stamina"); err != nil {
		return kit.Response{}, err
	}
	if in.Vigor, err = s.Need(req, "vigor"); err != nil {
		return kit.Response{}, err
	}
	// Durability, Health and Mana are needed only when something restores
	// them or Shock counts down; otherwise they are left out of the reply.
	shock := burstFlag(req, s, "shock") || req.Options.Has("rounds") || req.Options.Has("stable")
	dur, durKnown := s.Stat(req, "durability")
	if in.DurabilityRegen > 0 && !durKnown {
		return kit.Response{}, kit.Errorf("regen: restores Durability: give durability:<now> too (example: /burst recover stamina:12 vigor:3 regen:2 durability:4)")
	}
	health, healthKnown := s.Stat(req, "health")
	switch {
	case healthKnown:
	case shock:
		health, healthKnown = 0, true // "When you are reduced to 0 Health you ... go into Shock"
	case in.HealthRegen > 0:
		return kit.Response{}, kit.Errorf("health_regen: restores Health: give health:<now> too (example: /burst recover stamina:12 vigor:3 health_regen:1 health:2)")
	}
	mana, manaKnown := s.Stat(req, "mana")
	in.Mana = mana
	in.Track = rules.Track{Durability: dur, Health: health, Shock: shock, ShockRounds: s.Or(req, "rounds", 0), Stable: burstFlag(req, s, "stable")}
	if !durKnown {
		in.Track.Durability = 1 // not given: not wounded, and not shown
	}
	if !healthKnown {
		in.Track.Health = 1 // not given: not in Shock, and not shown
	}
	res, err := rules.Recover(in, c.cfg)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	if err := c.t.Done(); err != nil {
		return kit.Response{}, err
	}
	out := burstRecoverResult{
		Outcome: kit.Outcome{Total: res.Vigor, Rolls: c.t.Rolls()},
		Vigor:   res.Vigor, VigorGained: res.VigorGained, Winded: res.Winded,
		DurabilityGained: res.Durability, HealthGained: res.Health, ManaGained: res.ManaGained,
		Shock: res.After.Shock, ShockRounds: res.After.ShockRounds, Stable: res.After.Stable, Died: res.Died, Woke: res.Woke,
	}
	parts := []string{fmt.Sprintf("Vigor %d → %d", in.Vigor, res.Vigor)}
	if res.Winded {
		parts = append(parts, fmt.Sprintf("still winded (until %d Vigor)", rules.WindedUntil))
	}
	if durKnown {
		d := res.After.Durability
		out.Durability = &d
		if in.DurabilityRegen > 0 {
			note := ""
			if res.Durability == 0 && in.Track.Wounded() && !c.cfg.WoundedRecoversDurability {
				note = " (wounded: no quick recovery)"
			}
			parts = append(parts, fmt.Sprintf("Durability %d → %d%s", dur, d, note))
		}
	}
	if healthKnown {
		hp := res.After.Health
		out.Health = &hp
		if in.HealthRegen > 0 {
			parts = append(parts, fmt.Sprintf("Health %d → %d", health, hp))
		}
	}
	if manaKnown || in.ManaRegen > 0 {
		m := res.Mana
		out.Mana = &m
		parts = append(parts, fmt.Sprintf("Mana %d → %d", mana, m))
	}
	switch {
	case res.Died:
		parts = append(parts, "died in Shock")
	case res.Woke:
		parts = append(parts, "out of Shock and awake")
	case res.After.Shock && res.After.Stable:
		parts = append(parts, "stable in Shock, unconscious until 1 Health returns")
	case res.After.Shock:
		parts = append(parts, fmt.Sprintf("in Shock: %d rounds left", res.After.ShockRounds))
	}
	line := fmt.Sprintf("**%s** recovers: %s", c.who, strings.Join(parts, " · "))
	return burstReply(req, c, line, &out.Outcome, out), nil
}

type burstStabiliseResult struct {
	kit.Outcome
	burstDice
	VS     int  `json:"vs"`
	Stable bool `json:"stable"`
}

func (h *handlers) burstStabilise(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst stabilise medicine:2"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	n, err := burstDiceFrom(req, c.sheet, "medicine", "medicine", example)
	if err != nil {
		return kit.Response{}, err
	}
	res, err := rules.Stabilise(burstBonus(req, c.sheet, n), c.cfg, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := burstStabiliseResult{Outcome: kit.Outcome{Total: res.Roll.Total}, burstDice: newBurstDice(res.Roll), VS: res.VS, Stable: res.Stable}
	out.Succeeded(res.Success, res.Margin)
	if err := h.Finish(ctx, req, c.t, "burst stabilise", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	then := "still dying"
	if res.Stable {
		then = "stable, unconscious until 1 Health returns"
	}
	line := fmt.Sprintf("**%s** (Medicine): %d vs %d: %s, %s%s", c.who, res.Roll.Total, res.VS, burstVerdict(res.Success, res.Margin, "success", "failure"), then, burstsNote(res.Roll.Bursts))
	return burstReply(req, c, line, &out.Outcome, out), nil
}

type burstAidResult struct {
	kit.Outcome
	burstDice
	VS         int `json:"vs"`
	Restored   int `json:"restored"`
	Durability int `json:"durability"`
	Actions    int `json:"actions"`
}

func (h *handlers) burstAid(ctx context.Context, req *kit.Request) (kit.Response, error) {
	const example = "/burst aid medicine:2 durability:0"
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	n, err := burstDiceFrom(req, c.sheet, "medicine", "medicine", example)
	if err != nil {
		return kit.Response{}, err
	}
	// The patient's Durability is typed: the sheet is the healer's.
	dur, _ := req.Options.Int("durability")
	maxDur, _ := req.Options.Int("max_durability")
	res, err := rules.Aid(rules.AidInput{Medicine: burstBonus(req, c.sheet, n), Durability: int(dur), MaxDurability: int(maxDur)}, c.cfg, c.t)
	if err != nil {
		return kit.Response{}, BurstErr(err, example)
	}
	out := burstAidResult{Outcome: kit.Outcome{Total: res.Roll.Total}, burstDice: newBurstDice(res.Roll), VS: res.VS, Restored: res.Restored, Durability: res.Durability, Actions: res.Actions}
	out.Succeeded(res.Success, res.Margin)
	if err := h.Finish(ctx, req, c.t, "burst aid", &out.Outcome, out); err != nil {
		return kit.Response{}, err
	}
	then := "no Durability restored"
	if res.Success {
		then = fmt.Sprintf("restores %d Durability (%d → %d)", res.Restored, dur, res.Durability)
	}
	line := fmt.Sprintf("**%s** gives emergency aid (Medicine): %d vs %d: %s, %s · %d actions%s",
		c.who, res.Roll.Total, res.VS, burstVerdict(res.Success, res.Margin, "success", "failure"), then, res.Actions, burstsNote(res.Roll.Bursts))
	return burstReply(req, c, line, &out.Outcome, out), nil
}

type burstMoveResult struct {
	kit.Outcome
	PerAction int `json:"per_action"`
	Moves     int `json:"moves"`
}

// burstMove answers how far Move actions take a creature: "You move your
// combat movement distance, this is 1 foot per point of your Speed Score.
// You can take as many Move actions as you choose." No dice are rolled.
func (h *handlers) burstMove(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, err := h.burstStart(ctx, req)
	if err != nil {
		return kit.Response{}, err
	}
	speed, err := c.sheet.Need(req, "speed_score")
	if err != nil {
		return kit.Response{}, err
	}
	if speed < 0 {
		return kit.Response{}, kit.Errorf("speed_score cannot be negative (example: /burst move speed_score:30)")
	}
	moves := 1
	if v, ok := req.Options.Int("moves"); ok {
		moves = int(v)
	}
	if moves < 1 || moves > rules.MaxActions {
		return kit.Response{}, kit.Errorf("moves must be 1 to %d (example: /burst move speed_score:30 moves:2)", rules.MaxActions)
	}
	prone := burstFlag(req, c.sheet, "prone")
	per := rules.Movement(speed, prone, c.cfg)
	if err := c.t.Done(); err != nil {
		return kit.Response{}, err
	}
	out := burstMoveResult{Outcome: kit.Outcome{Total: per * moves, Rolls: c.t.Rolls()}, PerAction: per, Moves: moves}
	note := ""
	if prone {
		note = fmt.Sprintf(" (prone: a quarter of Speed %d)", speed)
	}
	line := fmt.Sprintf("**%s** moves %d feet: %d × %d feet a Move action%s", c.who, out.Total, moves, per, note)
	return burstReply(req, c, line, &out.Outcome, out), nil
}
