package burst

import (
	"context"
	"fmt"

	"github.com/tablehand/tablehand/commands/kit"
	rules "github.com/tablehand/tablehand/rules/burst"
)

// The fight around an attack: /burst attack against Guard (and the
// target's Defense), /burst defend, the Defense reaction on its own, and
// /burst move.

// Correct examples, shown with a mistake.
const (
	attackExample = "/burst attack bonus:2 guard:15"
	defendExample = "/burst defend attack:18 speed:2"
)

type defenseInfo struct {
	Total     int  `json:"total"`
	Success   bool `json:"success"`
	Margin    int  `json:"margin"`
	SpeedDice int  `json:"speed_dice"`
	Die       int  `json:"die,omitempty"`
	Bursts    int  `json:"bursts"`
	VigorCost int  `json:"vigor_cost"`
}

// BurstAttackResult is the result of /burst attack.
type BurstAttackResult struct {
	kit.Outcome
	rolled
	Challenges  int               `json:"challenges"`
	Guard       int               `json:"guard"` // the number to beat, visibility penalty included
	GuardDetail rules.GuardResult `json:"guard_detail"`
	Hit         bool              `json:"hit"`
	GuardMargin int               `json:"guard_margin"`
	Defense     *defenseInfo      `json:"defense,omitempty"`
	spent
}

func (h *handlers) attack(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, _, res, err := serve(ctx, h, req, attackExample, readAttack, rules.Attack)
	if err != nil {
		return kit.Response{}, err
	}
	out := BurstAttackResult{
		Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll), Challenges: res.Challenges,
		Guard: res.Guard.Target, GuardDetail: res.Guard, Hit: res.Hit, GuardMargin: res.GuardMargin,
		spent: spent{res.VigorCost, res.Vigor, res.Winded},
	}
	out.Succeeded(res.Success, res.Margin)
	if d := res.Defense; d != nil {
		out.Defense = &defenseInfo{Total: d.Roll.Total, Success: d.Success, Margin: d.Margin, SpeedDice: d.SpeedDice, Die: d.Roll.BonusSides, Bursts: d.Roll.Bursts, VigorCost: d.VigorCost}
	}
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, attackLine(c.Who(), res))
}

// readAttack reads an attack: the bonus dice of its stat (`with:` says
// which), the target's Guard and what changes it, and the reactions.
func readAttack(c *kit.Call) rules.AttackInput {
	o := c.Req.Options
	stat, err := rules.AttackStat(o.String("with"))
	if err != nil {
		c.Fail(BurstErr(err, "/burst attack bonus:2 with:spell"))
	}
	n := bonusDice(c, "bonus", stat, attackExample)
	in := rules.AttackInput{
		Label: stat, Guard: readGuard(c), Bonus: bonus(c, n),
		Prone: o.Bool("prone"), OffHand: o.Bool("offhand"), Opening: o.Bool("opening"),
		Vigor: vigor(c),
	}
	if v, ok := o.Int("defense"); ok {
		in.Defense = &rules.DefenseInput{Speed: int(v)}
	}
	return in
}

// readGuard reads the target's Guard and the situation around it.
func readGuard(c *kit.Call) rules.GuardInput {
	o := c.Req.Options
	g := rules.GuardInput{Guard: rules.BaseGuard, Behind: o.Bool("behind"), Ranged: o.Bool("ranged"), Area: o.Bool("area")}
	if v, ok := o.Int("guard"); ok {
		g.Guard = int(v)
	}
	if v, ok := o.Int("range"); ok {
		if !g.Ranged {
			c.Failf("range: is for attacks at range (example: /burst attack bonus:2 ranged:true range:120 visibility:low)")
		}
		g.Feet = int(v)
	}
	g.Cover = kit.Pick(c, "cover", rules.ParseCover, "/burst attack bonus:2 ranged:true cover:partial")
	g.Size = kit.Pick(c, "size", rules.ParseSize, "/burst attack bonus:2 size:large target_size:small")
	g.TargetSize = kit.Pick(c, "target_size", rules.ParseSize, "/burst attack bonus:2 target_size:tiny")
	g.Visibility = kit.Pick(c, "visibility", rules.ParseVisibility, "/burst attack bonus:2 ranged:true visibility:low")
	return g
}

// attackLine says the attack: the roll against Guard and why Guard is
// what it is, the target's Defense, and what the attack cost.
func attackLine(who string, res rules.AttackResult) string {
	guard := guardText(res.Guard)
	line := fmt.Sprintf("**%s**: %d vs %s: %s", who, res.Roll.Total, guard, verdict(res.Hit, res.GuardMargin, "hit", "miss"))
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
	}
	return line + vigorNote(res.VigorCost > 0, res.Vigor, res.Winded) + burstsNote(res.Roll.Bursts)
}

// guardText is "Guard 8 (15 halved from behind)": the Guard to beat and,
// when the situation changed it, how.
func guardText(g rules.GuardResult) string {
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
	return guard
}

// vigorNote is the reply's note of the Vigor left after a cost, when
// paid and tracked, and of being winded.
func vigorNote(paid bool, left *int, winded bool) string {
	note := ""
	if paid && left != nil {
		note += fmt.Sprintf(" (%d left)", *left)
	}
	if winded {
		note += " · winded"
	}
	return note
}

type defendResult struct {
	kit.Outcome
	rolled
	Attack int `json:"attack"`
	spent
}

// spent is the Vigor an attack or a defense cost, and what is left of it
// when it is tracked.
type spent struct {
	VigorCost int  `json:"vigor_cost"`
	Vigor     *int `json:"vigor,omitempty"`
	Winded    bool `json:"winded,omitempty"`
}

func (h *handlers) defend(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, _, res, err := serve(ctx, h, req, defendExample, readDefense, rules.Defend)
	if err != nil {
		return kit.Response{}, err
	}
	out := defendResult{Outcome: kit.Outcome{Total: res.Roll.Total}, rolled: rolledOf(res.Roll), Attack: res.Attack, spent: spent{res.VigorCost, res.Vigor, res.Winded}}
	out.Succeeded(res.Success, res.Margin)
	return kit.Answer(ctx, c, c.Req.Typed(), &out, &out.Outcome, defendLine(c.Who(), res))
}

// readDefense reads the Defense reaction: the attack to beat and the
// Speed dice that must beat it.
func readDefense(c *kit.Call) rules.DefenseInput {
	o := c.Req.Options
	speed := bonusDice(c, "speed", "speed", defendExample)
	attack, _ := o.Int("attack")
	b := bonus(c, speed)
	return rules.DefenseInput{
		Attack: int(attack), Speed: speed, Charges: b.Charges, Challenges: b.Challenges, Wounded: b.Wounded,
		Prone: o.Bool("prone"), Defending: o.Bool("defending"), Vigor: vigor(c),
	}
}

func defendLine(who string, res rules.DefenseResult) string {
	var v string
	switch {
	case res.Success:
		v = fmt.Sprintf("evaded by %d", res.Margin)
	case res.Margin == 0:
		v = "tie, the strike hits (ties go to the attacker)"
	default:
		v = fmt.Sprintf("the strike hits (short by %d)", -res.Margin)
	}
	line := fmt.Sprintf("**%s**: Defense %d vs attack %d: %s · %d Vigor", who, res.Roll.Total, res.Attack, v, res.VigorCost)
	return line + vigorNote(true, res.Vigor, res.Winded) + burstsNote(res.Roll.Bursts)
}

type moveResult struct {
	kit.Outcome
	PerAction int `json:"per_action"`
	Moves     int `json:"moves"`
}

// moveInput is what /burst move reads.
type moveInput struct {
	speed, moves int
	prone        bool
}

// move answers how far Move actions take a creature: "You move your
// combat movement distance, this is 1 foot per point of your Speed Score.
// You can take as many Move actions as you choose." No dice are rolled.
func (h *handlers) move(ctx context.Context, req *kit.Request) (kit.Response, error) {
	c, in, per, err := serve(ctx, h, req, "", readMove, movement)
	if err != nil {
		return kit.Response{}, err
	}
	out := moveResult{Outcome: kit.Outcome{Total: per * in.moves}, PerAction: per, Moves: in.moves}
	note := ""
	if in.prone {
		note = fmt.Sprintf(" (prone: a quarter of Speed %d)", in.speed)
	}
	line := fmt.Sprintf("**%s** moves %d feet: %d × %d feet a Move action%s", c.Who(), out.Total, in.moves, per, note)
	return kit.Tell(c, &out, &out.Outcome, line)
}

// readMove reads the Speed Score (`speed_score:`, else the sheet) and how
// many Move actions.
func readMove(c *kit.Call) moveInput {
	in := moveInput{speed: c.Need("speed_score"), moves: 1, prone: c.Flag("prone")}
	if in.speed < 0 {
		c.Failf("speed_score cannot be negative (example: /burst move speed_score:30)")
	}
	if v, ok := c.Req.Options.Int("moves"); ok {
		in.moves = int(v)
	}
	if in.moves < 1 || in.moves > rules.MaxActions {
		c.Failf("moves must be 1 to %d (example: /burst move speed_score:30 moves:2)", rules.MaxActions)
	}
	return in
}

// movement is rules.Movement: feet a Move action. It cannot fail.
func movement(in moveInput, cfg rules.Config, _ rules.Dice) (int, error) {
	return rules.Movement(in.speed, in.prone, cfg), nil
}
