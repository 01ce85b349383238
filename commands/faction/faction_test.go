package faction_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	factioncmd "github.com/tablehand/tablehand/commands/faction"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
	"github.com/tablehand/tablehand/rules/faction"
)

// ftTable is a guild with a store in memory, for /faction: "gm" has GM
// rights, everyone else is a player.
type ftTable struct{ kittest.Table }

func newFtTable(t testing.TB) *ftTable {
	t.Helper()
	store := kittest.Store(t)
	return &ftTable{kittest.Table{T: t, Store: store, R: kittest.Router(t, kittest.Deps(store), factioncmd.System)}}
}

// world: Red (alice) holds Mars, Blue (bob) Luna, Green (an NPC) Titan.
// Assets, by ID: Red's 1 Fabricator, 2 Frigate, 3 Spy, 4 Hacker Cell,
// 5 Fixer, 6 Media Network, 7 University, 8 Interrogator at Mars; Blue's
// 9 Militia at Luna and 10 Envoy at Mars; Green's 11 Work Crew at Titan.
func (ft *ftTable) world() {
	ft.T.Helper()
	for _, l := range []string{
		"/faction create name:Red owner:alice home:Mars region:inner",
		"/faction create name:Blue owner:bob home:Luna region:inner",
		"/faction create name:Green home:Titan region:outer policy:produce",
		"/faction asset add faction:Red chart:Fabricator",
		"/faction asset add faction:Red chart:Frigate",
		"/faction asset add faction:Red chart:Spy",
		`/faction asset add faction:Red chart:"Hacker Cell"`,
		"/faction asset add faction:Red chart:Fixer",
		`/faction asset add faction:Red chart:"Media Network"`,
		"/faction asset add faction:Red chart:University",
		"/faction asset add faction:Red chart:Interrogator",
		"/faction asset add faction:Blue chart:Militia",
		"/faction asset add faction:Blue chart:Envoy at:Mars",
		`/faction asset add faction:Green chart:"Work Crew"`,
	} {
		ft.Must("gm", l)
	}
}

// version is the campaign's save count: unchanged means nothing was saved.
func (ft *ftTable) version() int64 {
	ft.T.Helper()
	fc, err := ft.Store.Campaign(context.Background(), "guild")
	if err != nil {
		ft.T.Fatal(err)
	}
	return fc.Version
}

func (ft *ftTable) campaign() *faction.Campaign {
	ft.T.Helper()
	fc, err := factioncmd.LoadCampaign(context.Background(), ft.Store, "guild")
	if err != nil {
		ft.T.Fatal(err)
	}
	return fc.Campaign
}

// Every action of the text reaches the rules through /faction act, with
// its parameters from the options: the rules' own tests check each rule;
// this checks the wiring, with the text's numbers where a roll is made.
func TestFactionEveryActionThroughCommands(t *testing.T) {
	for _, tc := range []struct {
		setup []string
		line  string
		want  string // in the answer: its content, or the mistake
	}{
		// 4.3.1 Faction Actions.
		{[]string{"/faction set faction:Red sheet:RES=3"}, `action:regroup params:"attr=RES points=1"`, "round 2: RES heals 1"},
		// "Heal or Boost ... by [MoS/2] points (minimum 1)": 3 vs RES 4, MoS 1.
		{nil, "action:invest stat:INF dice:3", "rolled 3 vs 4 (RES 4): success by 1\n  ⏳ round 2: INF heals (or is boosted) by 1"},
		{[]string{"/faction habitat set habitat:Mars health:3"}, "action:maintenance habitat:Mars dice:2", "Red pays 1 INF (Maintenance: [Damage] INF)"},
		{[]string{"/faction asset set asset:2 health:1"}, "action:repair target:2 dice:2", "Repair Frigate #2: Straight Faction roll: rolled 2 vs 4 (STR 4): success by 2"},
		{nil, "action:annex habitat:Luna params:annexer=2", "Luna is not Suppressed"},
		{nil, "action:produce-asset params:chart=Militia", "waits for the GM: May Red produce a Militia"},
		{nil, "action:purchase params:faction=Blue target:9", "waits for Blue: Will Blue sell Militia #9 to Red"},
		{nil, "action:hire-mercenaries params:faction=Blue target:9", "for 2 INF and 1 INF a round?"},
		{nil, "action:rally habitat:Mars target:9", "Rally needs a Suppressed Habitat"},
		// Another type: "[(new Level)*2] Related Stat" = 3 x 2... of a
		// Level 3 Shipyard of the same type RES: [new Level] = 3 INF.
		{nil, "action:repurpose target:1 params:chart=Shipyard", "Red pays 3 INF"},
		// "[10-(MoS)]/2 SOL": 2 vs COH 4, MoS 2: 4 SOL.
		{nil, "action:mandate params:meme=Legalism dice:2", "Red pays 4 SOL"},
		{nil, `action:diplomacy params:"faction=Blue kind=alliance"`, "Red proposes an alliance to Blue"},
		// 4.3.2.1 Standard Actions.
		{nil, "action:attack asset:2 target:9", "act there, or Remote first"},
		{nil, "action:attack-special asset:2 target:10 dice:9,1", "2 more needed"},
		{nil, "action:move asset:2 params:to=Luna", "Frigate #2 location Mars -> Luna"},
		// "(+HTA)": Level 2 x 2 + Home Turf RES 4 = 8; 3: MoS 5, heals 2.
		{nil, "action:produce@1 dice:3", "rolled 3 vs 8 (Level 2 x 2 4 + Home Turf RES 4): success by 5"},
		{nil, `action:plan asset:1 params:"action=attack faction=Blue" dice:5,2`, "round 2: 7 AP for Fabricator #1's Attack"},
		{nil, `action:plan-special asset:4 params:"action=sabotage faction=Blue" dice:5,2`, "Red pays 1 AP"},
		// 4.3.2.2 Special Actions.
		{nil, "action:counter-attack asset:2", "Counter-Attack is taken when the asset is attacked"},
		{nil, "action:laundering asset:5 params:action=sabotage", "Fixer #5's Sabotage is Planned and Covert"},
		{nil, "action:asset-diplomacy asset:6 params:faction=Blue", "Red pays 1 AP"},
		{nil, "action:subterfuge asset:3", "Spy #3 Covert no -> yes"},
		{nil, "action:asset-invest asset:6 stat:SOL dice:2", "Invest SOL: Straight Asset roll: rolled 2 vs 4 (Level 2 x 2 4): success by 2"},
		{[]string{"/faction asset set asset:2 health:1"}, "action:asset-repair asset:1 target:2 dice:2", "Red pays 2 AP"},
		{nil, "action:remote asset:4 dice:2", "Hacker Cell #4 may act Remotely, ignoring 2 Home Turf"},
		{nil, "action:capture asset:3 target:10 dice:9,1", "Envoy #10 captured by Red"},
		{nil, "action:investigate asset:3", "Spy #3 finds no Covert Asset"},
		{nil, "action:misdirect asset:3 target:10 dice:9,1", "Envoy #10 no action in round 2"},
		{nil, `action:sabotage asset:4 params:"mode=stat faction=Blue" stat:INF dice:9,1`, "must be in Blue's territory, or act Remotely"},
		{nil, "action:turn-agent asset:8 target:10", "Envoy #10 is not held captive by Red"},
		{nil, "action:research asset:7 params:kind=level target:2 dice:2", "research project 1 (level) is complete"}, // Red's first project: numbered per faction
		// 4.3.2.3 Triggered Actions and the bookkeeping.
		{nil, "action:escape asset:3", "Escape is triggered"},
		{nil, "action:convert-duplicate asset:3 params:chart=Fixer", "Spy #3 is not a duplicate"},
		{nil, "action:free-investigate asset:3", "is triggered"},
		{nil, "action:pay params:debt=1", "Red owes no debt 1"},
		{nil, "action:release-mercenary target:9", "is not a Mercenary hired by Red"},
		{nil, "action:eliminate target:10", "is not Red's captive"},
		{nil, `action:give-upgrade params:"project=1 faction=Blue"`, "Blue is not allied with Red"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			ft := newFtTable(t)
			ft.world()
			for _, l := range tc.setup {
				ft.Must("gm", l)
			}
			resp, _ := ft.Do("alice", "/faction act "+tc.line)
			want := strings.ReplaceAll(tc.want, "\\n", "\n")
			if !strings.Contains(resp.Content, want) {
				t.Errorf("/faction act %s:\n%s\nwant %q", tc.line, resp.Content, want)
			}
		})
	}
	if n := len(faction.Actions()); n != 38 {
		t.Errorf("the rules have %d actions; this test covers 38", n)
	}
}

// The dice: values are used exactly or nothing is saved; a roll is logged.
func TestFactionActDice(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	v := ft.version()
	for _, l := range []string{"/faction act action:invest stat:INF dice:3,4", "/faction act action:plan@1 params:\"action=attack faction=Blue\" dice:5", "/faction act action:invest stat:INF dice:11"} {
		resp, err := ft.Do("alice", l)
		if _, ok := kit.AsUserError(err); !ok || !strings.Contains(resp.Content, "dice") || ft.version() != v {
			t.Errorf("%s: %v %q; version %d, want %d", l, err, resp.Content, ft.version(), v)
		}
	}
	resp := ft.Must("alice", "/faction act action:invest stat:INF dice:3")
	res := resp.Result.(factioncmd.FactionActResult)
	if res.ID == "" || res.Total != 3 || res.Success == nil || !*res.Success || *res.Margin != 1 || ft.version() != v+1 {
		t.Fatalf("result %+v", res)
	}
	roll, found, err := ft.Store.RollByCode(context.Background(), "table", res.ID)
	if err != nil || !found || roll.Expr != "faction invest" || roll.Total != 3 {
		t.Errorf("roll log: %+v %v %v", roll, found, err)
	}
	// One Faction Action a turn.
	if _, err := ft.Do("alice", "/faction act action:invest stat:TEC dice:3"); err == nil || !strings.Contains(err.Error(), "ONE Faction Action") {
		t.Errorf("a second Faction Action: %v", err)
	}
}

// Players act, order and see orders for their own faction only; the GM
// for any.
func TestFactionPlayersOwnFaction(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	for _, l := range []string{"/faction act faction:Red action:invest stat:INF dice:3", "/faction order faction:Red action:invest stat:INF", "/faction orders faction:Red"} {
		if _, err := ft.Do("bob", l); err == nil || !strings.Contains(err.Error(), "Red is not your faction") {
			t.Errorf("bob %s: %v", l, err)
		}
	}
	if _, err := ft.Do("carol", "/faction order action:invest stat:INF"); err == nil || !strings.Contains(err.Error(), "no faction") {
		t.Errorf("carol has no faction: %v", err)
	}
	a := ft.Must("alice", "/faction order action:invest stat:INF").Result.(factioncmd.FactionOrderResult)
	b := ft.Must("bob", "/faction order action:invest stat:TEC").Result.(factioncmd.FactionOrderResult)
	g := ft.Must("gm", "/faction order faction:Green action:invest stat:SOL").Result.(factioncmd.FactionOrderResult)
	// Each faction numbers its own orders (issue 20): bob's first is #1
	// whatever alice queued.
	if a.ID != 1 || b.ID != 1 || g.ID != 1 {
		t.Errorf("order numbers Red %d, Blue %d, Green %d; want 1 each", a.ID, b.ID, g.ID)
	}
	if _, err := ft.Do("gm", "/faction orders remove:1"); err == nil || !strings.Contains(err.Error(), "name the faction") {
		t.Errorf("the GM removes #1 of three factions' without naming one: %v", err)
	}
	list := ft.Must("bob", "/faction orders").Result.([]factioncmd.FactionOrderResult)
	if len(list) != 1 || list[0].Faction != "Blue" {
		t.Errorf("bob sees %+v", list)
	}
	if all := ft.Must("gm", "/faction orders").Result.([]factioncmd.FactionOrderResult); len(all) != 3 {
		t.Errorf("the GM sees %+v", all)
	}
	if left := ft.Must("gm", "/faction orders faction:Green remove:1").Result.([]factioncmd.FactionOrderResult); len(left) != 0 {
		t.Errorf("Green's orders after the GM removed its #1: %+v", left)
	}
	if _, err := ft.Do("bob", fmt.Sprintf("/faction orders faction:Red remove:%d", a.ID)); err == nil {
		t.Error("bob removed alice's order")
	}
	if left := ft.Must("alice", fmt.Sprintf("/faction orders remove:%d", a.ID)).Result.([]factioncmd.FactionOrderResult); len(left) != 0 {
		t.Errorf("alice's orders after removing hers: %+v", left)
	}
	if left := ft.Must("bob", "/faction orders clear:true").Result.([]factioncmd.FactionOrderResult); len(left) != 0 {
		t.Errorf("bob's orders after clearing: %+v", left)
	}
	// Asset Actions name their asset; parameters are checked.
	for l, want := range map[string]string{
		"/faction order action:produce":                                                   "name the acting asset",
		"/faction order action:invest stat:INF params:to=Mars":                            "Invest takes no to:",
		"/faction order action:invest asset:1 stat:INF":                                   "not an Asset Action",
		"/faction order action:nonsense":                                                  "there is no action",
		"/faction order action:escape asset:3":                                            "triggered",
		"/faction order action:produce-asset params:\"chart=Militia gm_produce=approve\"": "gm_produce: is an answer for the GM",
	} {
		if _, err := ft.Do("alice", l); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", l, err, want)
		}
	}
	// The GM may give the answer by re-issuing the order with it.
	if o := ft.Must("gm", "/faction order faction:Red action:produce-asset params:\"chart=Militia gm_produce=approve\"").Result.(factioncmd.FactionOrderResult); !strings.Contains(o.Order, "gm_produce=approve") {
		t.Errorf("the GM's order: %+v", o)
	}
}

// A Question holds the action; the right person answers with the button.
func TestFactionQuestionButtons(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	resp := ft.Must("alice", "/faction act action:produce-asset params:chart=Militia")
	res := resp.Result.(factioncmd.FactionActResult)
	if res.Held == 0 || len(resp.Rows) != 1 || resp.Rows[0][0].CustomID != fmt.Sprintf("fans:%d:0:Red", res.Held) || resp.Rows[0][0].Label != fmt.Sprintf("#%d approve", res.Held) {
		t.Fatalf("held: %+v rows %+v", res, resp.Rows)
	}
	v := ft.version()
	if _, err := ft.Do("alice", "click:"+resp.Rows[0][0].CustomID); !errors.Is(err, kit.ErrNotGM) {
		t.Errorf("alice answered the GM's question: %v", err)
	}
	// The GM approves: Produce Asset is carried out at once: "Production
	// immediately incurs [Level] Stat damage": 1 POP for a Militia.
	out := ft.Must("gm", "click:"+resp.Rows[0][0].CustomID)
	if !strings.Contains(out.Content, "answered \"approve\"") || !strings.Contains(out.Content, "Red pays 1 POP") || ft.version() != v+1 {
		t.Errorf("approved: %q", out.Content)
	}
	if _, err := ft.Do("gm", "click:"+resp.Rows[0][0].CustomID); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Errorf("answered twice: %v", err)
	}
	// Consent is Blue's player's to give (or the GM's).
	ft = newFtTable(t)
	ft.world()
	resp = ft.Must("alice", "/faction act action:purchase params:faction=Blue target:9")
	if _, err := ft.Do("alice", "click:"+resp.Rows[0][0].CustomID); err == nil || !strings.Contains(err.Error(), "for Blue's player") {
		t.Errorf("alice consented for Blue: %v", err)
	}
	out = ft.Must("bob", "click:"+resp.Rows[0][0].CustomID)
	if !strings.Contains(out.Content, "answered \"agree\"") {
		t.Errorf("bob agreed: %q", out.Content)
	}
	if a, own := ft.campaign().Asset(9); a == nil || own.Name != "Red" {
		t.Errorf("the Militia was not sold: %v", own)
	}
}

// Covert assets are hidden from other players, not from their faction or
// the GM.
func TestFactionCovertHidden(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	ft.Must("gm", "/faction asset set asset:3 covert:true")
	count := func(user, line string) int {
		res := ft.Must(user, line).Result
		switch r := res.(type) {
		case factioncmd.FactionResult:
			return len(r.Assets)
		case []factioncmd.AssetResult:
			return len(r)
		}
		t.Fatalf("result %T", res)
		return 0
	}
	if a, b, g := count("alice", "/faction show"), count("bob", "/faction show faction:Red"), count("gm", "/faction asset list faction:Red"); a != 8 || b != 7 || g != 8 {
		t.Errorf("Red's assets seen by alice %d, bob %d, the GM %d; want 8, 7, 8", a, b, g)
	}
	offers := func(user string) bool {
		for _, c := range ft.Must(user, "complete /faction act action:invest target:3").Choices {
			if c.Value == "3" { // asset: is a number or a name: its choices are text
				return true
			}
		}
		return false
	}
	if offers("bob") || !offers("alice") {
		t.Errorf("the Covert Spy in autocomplete: bob %v (want false), alice %v (want true)", offers("bob"), offers("alice"))
	}
}

// /faction roll: the four roll types with the text's rules, bare or read
// from the campaign.
func TestFactionRoll(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	for _, tc := range []struct{ line, want string }{
		{"type:straight-faction attribute:4 dice:4", "rolled 4 vs 4 (Attribute 4): success by 0"},
		// "A roll of 10 is always a failure ... Likewise, a roll of 1 is always a success."
		{"type:straight-faction attribute:12 dice:10", "failure by 0 (a natural 10 always fails)"},
		{"type:straight-faction attribute:0 dice:1", "success by 0 (a natural 1 always succeeds)"},
		{"type:straight-asset level:2 dice:5", "rolled 5 vs 4 (Level 2 x 2 4): failure by 1"},
		{"type:straight-asset level:2 hta:4 dice:8", "rolled 8 vs 8 (Level 2 x 2 4 + bonus 4): success by 0"},
		// "Ties go to the defender."
		{"type:opposed-faction level:2 defender_attribute:4 dice:6,6", "6 + 4 = 10 (Level 2 x 2 4) vs 6 + 4 = 10 (Attribute 4): failure by 0 (ties go to the defender)"},
		// "An Opposed Roll of 10 beats a roll of 1 regardless of bonuses."
		{"type:opposed-asset level:1 defender_level:6 dice:10,1", "success by 0 (a 10 beats a 1 regardless of bonuses)"},
		// From the campaign: Red's RES; the Fabricator at home adds RES 4,
		// Blue's Militia at home STR 4 ("Includes Home Turf Advantage").
		{"type:straight-faction faction:Red attribute:RES dice:3", "rolled 3 vs 4 (Attribute 4): success by 1"},
		// Without faction:, the Attribute is alice's faction's, Red's, as
		// /faction order defaults to it, and the reply says whose.
		{"type:straight-faction attribute:RES dice:3", "rolled 3 vs 4 (Attribute 4): success by 1\n-# Red is your faction: faction: names another"},
		{"type:opposed-asset asset:1 defender_asset:9 dice:5,5", "5 + 8 = 13 (Level 2 x 2 4 + bonus 4) vs 5 + 6 = 11 (Level 1 x 2 2 + bonus 4): success by 2"},
	} {
		resp, err := ft.Do("alice", "/faction roll "+tc.line)
		if err != nil || !strings.Contains(resp.Content, tc.want) {
			t.Errorf("%s: %v\n%s\nwant %q", tc.line, err, resp.Content, tc.want)
		}
	}
	// A faction named, or an Attribute given as a number, reads no
	// faction by default and says nothing of one.
	for _, line := range []string{"type:straight-faction faction:Red attribute:RES dice:3", "type:straight-faction attribute:4 dice:4"} {
		if resp, err := ft.Do("alice", "/faction roll "+line); err != nil || strings.Contains(resp.Content, "is your faction") {
			t.Errorf("%s: %v\n%s: names a default it did not use", line, err, resp.Content)
		}
	}
	for line, want := range map[string]string{
		"type:opposed-asset level:1 defender_level:1 dice:5": "1 more needed",
		"type:straight-faction":                              "needs attribute",
		"type:straight-asset attribute:3":                    "needs level",
	} {
		if _, err := ft.Do("alice", "/faction roll "+line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
	// The GM plays no faction: whose Attribute is the mistake.
	want := `attribute:RES names an Attribute: say whose with faction:<faction> (example: /faction roll type:straight-faction attribute:RES faction:"Red")`
	if _, err := ft.Do("gm", "/faction roll type:straight-faction attribute:RES dice:3"); err == nil || err.Error() != want {
		t.Errorf("the GM's attribute:RES: %v, want %q", err, want)
	}
}

// The action autocomplete lists what the faction may do now, with costs;
// its value names the asset.
func TestFactionSuggestions(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	has := func(cs []kit.Choice, name string, value any) bool {
		for _, c := range cs {
			if c.Name == name && c.Value == value {
				return true
			}
		}
		return false
	}
	cs := ft.Must("alice", "complete /faction act action:").Choices
	if !has(cs, "Invest (none)", "invest") || !has(cs, "Produce with Fabricator #1 (2 AP)", "produce@1") || len(cs) > kit.MaxChoices {
		t.Errorf("suggestions: %+v", cs)
	}
	ft.Must("alice", "/faction act action:invest stat:INF dice:3")
	if cs := ft.Must("alice", "complete /faction act action:inv").Choices; has(cs, "Invest (none)", "invest") {
		t.Errorf("Invest still offered after the Faction Action: %+v", cs)
	}
	cs = ft.Must("alice", "complete /faction order action:plan@1 params:action=attack").Choices
	if len(cs) < 2 || cs[0].Value != "action=attack" || !strings.Contains(fmt.Sprint(cs[1:]), "faction=") {
		t.Errorf("params suggestions: %+v", cs)
	}
	if cs := ft.Must("bob", "complete /faction show faction:").Choices; len(cs) != 3 || cs[0].Value != "Blue" {
		t.Errorf("faction suggestions put bob's first: %+v", cs)
	}
	if cs := ft.Must("gm", "complete /faction asset add faction:Red chart:yard").Choices; len(cs) != 1 || cs[0].Value != "Shipyard" {
		t.Errorf("chart suggestions: %+v", cs)
	}
}

// /faction round: the dice given must match or nothing is saved; the
// report fits one message, summarising what does not fit; /faction
// preview changes nothing and gives every roll's exact odds.
func TestFactionRoundAndPreview(t *testing.T) {
	ft := newFtTable(t)
	ft.Must("gm", "/faction create name:F00 home:H00 policy:invest")
	for i := 1; i < 12; i++ {
		ft.Must("gm", fmt.Sprintf("/faction create name:F%02d home:H%02d policy:invest", i, i))
	}
	v := ft.version()
	p := ft.Must("gm", "/faction preview")
	if ft.version() != v || !strings.Contains(p.Embeds[0].Description, "**40%** to succeed · Invest INF") {
		t.Errorf("preview: version %d, %+v", ft.version(), p.Embeds[0])
	}
	kittest.CheckLimits(t, p)
	if _, err := ft.Do("gm", "/faction round dice:1,2,3"); err == nil || ft.version() != v {
		t.Errorf("a round with too few dice: %v, version %d", err, ft.version())
	}
	if _, err := ft.Do("alice", "/faction round"); !errors.Is(err, kit.ErrNotGM) {
		t.Errorf("a player played a round: %v", err)
	}
	resp := ft.Must("gm", "/faction round count:3")
	res := resp.Result.(factioncmd.RoundResult)
	if len(res.Rounds) != 3 || res.Round != 4 || len(res.Summarised) == 0 {
		t.Fatalf("result: %d rounds, next %d, %d summarised", len(res.Rounds), res.Round, len(res.Summarised))
	}
	kittest.CheckLimits(t, resp)
	last := resp.Embeds[len(resp.Embeds)-1]
	if last.Image != "attachment://factions.png" || len(resp.Files) != 1 || resp.Files[0].ContentType != "image/png" {
		t.Errorf("no chart: %+v %+v", last, resp.Files)
	}
	if sum := resp.Embeds[len(resp.Embeds)-2]; sum.Title != "In short" || !strings.Contains(sum.Description, "did not fit in one message") {
		t.Errorf("summary: %+v", sum)
	}
	rep := ft.Must("gm", "/faction report round:2 faction:F11")
	if reps := rep.Result.([]faction.FactionReport); len(reps) != 1 || reps[0].Faction != "F11" {
		t.Errorf("report: %+v", rep.Result)
	}
	if _, err := ft.Do("gm", "/faction report round:9"); err == nil {
		t.Error("a report of a round not played")
	}
}

// RoundMessages pages a schedule's report over as many messages as
// Discord's limits need, the chart on the last.
func TestRoundMessagesPaged(t *testing.T) {
	c, err := faction.NewCampaign(faction.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		f, err := c.AddFaction(fmt.Sprintf("Faction %02d", i), "")
		if err != nil {
			t.Fatal(err)
		}
		f.Policy = faction.PolicyProduce
		if _, err := c.AddHabitat(fmt.Sprintf("Habitat %02d", i), f.Name, ""); err != nil {
			t.Fatal(err)
		}
		for _, chart := range []string{"Fabricator", "Militia", "Work Crew"} {
			if _, err := c.AddAsset(f.Name, chart, fmt.Sprintf("Habitat %02d", i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := faction.ResolveRound(c, nil, dice.NewRandom(rand.New(rand.NewPCG(1, 1))))
	if err != nil {
		t.Fatal(err)
	}
	played := factioncmd.PlayResult{Campaign: factioncmd.Campaign{Campaign: c}, Rounds: []factioncmd.Round{{Round: 1, Report: rep, Sheets: factioncmd.Sheets(c)}}}
	msgs, err := factioncmd.RoundMessages(played, played.Rounds, "header", true)
	if err != nil {
		t.Fatal(err)
	}
	embeds := 0
	for i, m := range msgs {
		kittest.CheckLimits(t, m)
		embeds += len(m.Embeds)
		if (len(m.Files) == 1) != (i == len(msgs)-1) {
			t.Errorf("message %d of %d carries %d files", i, len(msgs), len(m.Files))
		}
	}
	if len(msgs) < 4 || embeds != 31 || !strings.HasPrefix(msgs[0].Content, "header\n") {
		t.Errorf("%d messages, %d embeds", len(msgs), embeds)
	}
	b, err := json.Marshal(msgs[0].Result)
	if err != nil || !strings.Contains(string(b), `"round":2`) {
		t.Errorf("result: %s %v", b, err)
	}
}

// Deleting a faction frees its habitats and drops its orders.
func TestFactionDelete(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	ft.Must("bob", "/faction order action:invest stat:TEC")
	ft.Must("gm", "/faction delete faction:Blue")
	c := ft.campaign()
	if c.Faction("Blue") != nil || c.Habitat("Luna").Owner != "" || len(c.TurnOrder) != 2 {
		t.Errorf("after delete: %+v %+v", c.TurnOrder, c.Habitat("Luna"))
	}
	if orders, _ := ft.Store.FactionOrders(context.Background(), "guild", "", ""); len(orders) != 0 {
		t.Errorf("Blue's orders stay: %+v", orders)
	}
	if _, err := ft.Do("alice", "/faction delete faction:Red"); !errors.Is(err, kit.ErrNotGM) {
		t.Errorf("a player deleted a faction: %v", err)
	}
}

// The GM's edits: sheet values, memes, turn order, habitats, assets.
func TestFactionGMEdits(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	ft.Must("gm", `/faction set faction:Green sheet:"RES=6 max_int=5 base_pop=8 ap=2" memes:"Legalism, Singularity" turn:1 decline:counter-attack owner:carol`)
	c := ft.campaign()
	g := c.Faction("Green")
	if g.Attributes.RES != 6 || g.MaxAttributes.INT != 5 || g.BaseStats.POP != 8 || g.AP != 2 || len(g.Memes) != 2 || !g.Memes[0].Active ||
		c.TurnOrder[0] != "Green" || g.Owner != "carol" || g.Decline[0] != "counter-attack" {
		t.Errorf("Green: %+v, turn order %v", g, c.TurnOrder)
	}
	for line, want := range map[string]string{
		`/faction set faction:Green memes:"A, B, C, D"`: "more than 3 Memes",
		`/faction set faction:Green memes:Pacifism`:     "there is no meme",
		`/faction set faction:Green sheet:LUCK=3`:       "is not RES, INT",
		"/faction asset add faction:Red chart:Nothing":  "not in the asset chart",
		"/faction habitat remove habitat:Mars":          "still has assets",
		"/faction create name:Red":                      "already a faction",
	} {
		if _, err := ft.Do("gm", line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
	// A habitat changes hands with its bonus: Blue's full Stats lose 1.
	ft.Must("gm", "/faction habitat set habitat:Luna faction:Red")
	c = ft.campaign()
	if c.Habitat("Luna").Owner != "Red" || c.Faction("Blue").Stats.INF != 6 || c.Faction("Red").Stats.INF != 8 {
		t.Errorf("Luna: %+v; Blue INF %d, Red INF %d", c.Habitat("Luna"), c.Faction("Blue").Stats.INF, c.Faction("Red").Stats.INF)
	}
	ft.Must("gm", "/faction asset set asset:9 faction:Red at:Mars level:2 health:1 name:\"Old Guard\"")
	if a, own := ft.campaign().Asset(9); own.Name != "Red" || a.Location != "Mars" || a.Level != 2 || a.Health != 1 || a.Name != "Old Guard" {
		t.Errorf("asset 9: %+v of %s", a, own.Name)
	}
	ft.Must("gm", "/faction asset remove asset:9")
	if a, _ := ft.campaign().Asset(9); a != nil {
		t.Error("asset 9 not removed")
	}
	if _, err := ft.Do("alice", "/faction asset add faction:Red chart:Dreadnought"); !errors.Is(err, kit.ErrNotGM) {
		t.Errorf("a player added an asset: %v", err)
	}
	if _, err := newFtTable(t).Do("alice", "/faction list"); err == nil || !strings.Contains(err.Error(), "no faction campaign yet") {
		t.Errorf("no campaign: %v", err)
	}
}

// A public report names no covert action; its faction's player and the GM
// see it in full.
func TestReportHidesCovertActions(t *testing.T) {
	fr := faction.FactionReport{Faction: "Red", Outcomes: []faction.Outcome{
		{Faction: "Red", Name: "Sabotage", Text: "Red: Sabotage with Shade #3", Covert: true, Success: true},
		{Faction: "Red", Name: "Attack", Text: "Red: Attack with Frigate #2", Success: true},
	}}
	public := factioncmd.ReportEmbed(2, fr, 0, false, true).Description
	if strings.Contains(public, "Sabotage") || strings.Contains(public, "Shade") || !strings.Contains(public, "Attack") || !strings.Contains(public, "1 covert action") {
		t.Errorf("public report:\n%s", public)
	}
	private := factioncmd.ReportEmbed(2, fr, 0, false, false).Description
	if !strings.Contains(private, "Sabotage") || strings.Contains(private, "covert action(s)") {
		t.Errorf("the faction's own report:\n%s", private)
	}
}

// Habitats: the GM adds one (owned or not), players may not; the list and
// the habitat autocomplete show every habitat with its owner and health.
func TestFactionHabitats(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	if _, err := ft.Do("alice", "/faction habitat add name:Ceres"); err == nil {
		t.Error("a player added a habitat")
	}
	resp := ft.Must("gm", "/faction habitat add name:Ceres faction:Red region:belt")
	if resp.Content != "Added the habitat **Ceres**." {
		t.Errorf("add: %q", resp.Content)
	}
	if got, ok := resp.Result.(factioncmd.HabitatResult); !ok || got.Name != "Ceres" || got.Owner != "Red" || got.Region != "belt" || got.Health == 0 || got.Health != got.MaxHealth {
		t.Errorf("add result: %+v", resp.Result)
	}
	if _, err := ft.Do("gm", "/faction habitat add name:Vesta faction:Purple"); err == nil {
		t.Error("a habitat owned by a faction that does not exist")
	}
	if _, err := ft.Do("gm", "/faction habitat add name:ceres"); err == nil {
		t.Error("a second habitat named ceres")
	}
	ft.Must("gm", "/faction habitat add name:Vesta")
	list := ft.Must("bob", "/faction habitat list")
	hs, ok := list.Result.([]factioncmd.HabitatResult)
	if !ok || len(hs) != 5 {
		t.Fatalf("list result: %+v", list.Result)
	}
	names := map[string]string{}
	for _, h := range hs {
		names[h.Name] = h.Owner
	}
	if names["Mars"] != "Red" || names["Luna"] != "Blue" || names["Ceres"] != "Red" || names["Vesta"] != "" {
		t.Errorf("owners: %v", names)
	}
	if d := list.Embeds[0].Description; !strings.Contains(d, "**Ceres** (Red, belt") || !strings.Contains(d, "**Vesta** (unowned") {
		t.Errorf("list: %q", d)
	}
	cs := ft.Must("gm", "complete /faction habitat set habitat:es").Choices
	if len(cs) != 2 || cs[0].Value != "Ceres" || !strings.HasPrefix(cs[0].Name, "Ceres (Red, health ") || cs[1].Value != "Vesta" || !strings.HasPrefix(cs[1].Name, "Vesta (unowned") {
		t.Errorf("habitat suggestions for es: %+v", cs)
	}
}

// An answer button names its order by its faction and its number within
// it (issue 20: fans:<number>:<option>:<faction>), never by the store's
// ID, which counts every faction's orders; a button posted before (the
// store's ID, fans:<id>:<option>) still answers its own order.
func TestFactionAnswerButtonsNameTheFactionsNumber(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	ft.Must("alice", "/faction order action:invest stat:INF")
	ft.Must("gm", "/faction order faction:Green action:invest stat:TEC")
	// Blue's first order, the store's third, held by the GM's question.
	resp := ft.Must("bob", "/faction act action:produce-asset params:chart=Militia")
	if held := resp.Result.(factioncmd.FactionActResult).Held; held != 1 {
		t.Fatalf("Blue's held act is #%d, want #1", held)
	}
	if len(resp.Rows) != 1 || resp.Rows[0][0].CustomID != "fans:1:0:Blue" || resp.Rows[0][0].Label != "#1 approve" {
		t.Fatalf("Blue's held act's buttons: %+v", resp.Rows)
	}
	// The button finds Blue's #1 (denied, the act fails, and stays held).
	if _, err := ft.Do("gm", "click:fans:1:1:Blue"); err == nil || !strings.Contains(err.Error(), "the GM does not allow Blue to produce a Militia") {
		t.Errorf("the GM's denial: %v", err)
	}
	// An old button names the store's ID of Blue's #1.
	orders, err := ft.Store.FactionOrders(context.Background(), "guild", "Blue", "")
	if err != nil || len(orders) != 1 || orders[0].Number != 1 || orders[0].ID == 1 {
		t.Fatalf("Blue's orders %+v, %v: the test shows nothing", orders, err)
	}
	if out := ft.Must("gm", fmt.Sprintf("click:fans:%d:0", orders[0].ID)); !strings.Contains(out.Content, `answered "approve" for order #1 (Blue)`) {
		t.Errorf("the old button's answer: %q", out.Content)
	}
	if _, err := ft.Do("gm", "click:fans:7:0:Blue"); err == nil || !strings.Contains(err.Error(), "order #7 of Blue is gone") {
		t.Errorf("a button of no order: %v", err)
	}
}

// TestOldCampaignPlaysOn: a campaign saved when one counter (next_id)
// numbered assets, effects, projects and debts alike loads and plays on.
// What it holds keeps its numbers; what comes next is numbered past any
// number its players may have read.
func TestOldCampaignPlaysOn(t *testing.T) {
	ft := newFtTable(t)
	ft.world()
	ctx := context.Background()
	_, err := ft.Store.UpdateCampaign(ctx, "guild", func(fc *db.FactionCampaign) error {
		var state map[string]any
		if err := json.Unmarshal(fc.State, &state); err != nil {
			return err
		}
		delete(state, "per_faction_numbers")
		state["next_id"] = 40
		red := state["factions"].([]any)[0].(map[string]any)
		red["debts"] = []any{map[string]any{"id": 31, "kind": "annex", "habitat": "Mars", "stat": "POP", "amount": 1,
			"note": "the Annexation of Mars: 1 POP"}}
		b, err := json.Marshal(state)
		fc.State = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := ft.Must("alice", "/faction show").Embeds[0].Fields; !strings.Contains(fmt.Sprint(got), "debt 31: the Annexation of Mars") {
		t.Errorf("Red's sheet: %v", got)
	}
	ft.Must("alice", "/faction act action:pay params:debt=31")
	// Red's first project, and the next asset, are past the old next_id.
	if got := ft.Must("alice", "/faction act action:research asset:7 params:kind=level target:2 dice:2").Content; !strings.Contains(got, "research project 40 (level)") {
		t.Errorf("research:\n%s", got)
	}
	if got := ft.Must("gm", "/faction asset add faction:Blue chart:Militia").Content; !strings.Contains(got, "`#40` **Militia**") {
		t.Errorf("asset add: %s", got)
	}
}
