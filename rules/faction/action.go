package faction

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/rules/dice"
)

// Kind is what sort of action an action is.
type Kind string

// The kinds of action.
const (
	// KindFaction: "Each Faction takes ONE Faction Action at the beginning
	// of the Turn."
	KindFaction Kind = "faction"
	// KindStandard: "Any asset may take any Standard Action that can be
	// justified to (or by) the GM."
	KindStandard Kind = "asset-standard"
	// KindSpecial: "Special Actions are only available where listed
	// explicitly (see "Asset" chart)."
	KindSpecial Kind = "asset-special"
	// KindTriggered: taken when its trigger happens.
	KindTriggered Kind = "triggered"
	// KindFree: bookkeeping the text calls for (paying a delayed cost,
	// releasing a mercenary, eliminating a captive, giving an upgrade): no
	// roll, no Faction or Asset Action used.
	KindFree Kind = "free"
)

// Asset reports whether the kind is an Asset Action.
func (k Kind) Asset() bool { return k == KindStandard || k == KindSpecial || k == KindTriggered }

// Phase is a phase of the turn sequence (4.1).
type Phase int

// The phases: "1. Renew AP 2. Apply Delayed Effects 3. Faction Actions 4.
// Initial Movement 5. Asset Actions 6. Subsequent Movement".
const (
	PhaseNone Phase = iota
	PhaseRenewAP
	PhaseDelayed
	PhaseFaction
	PhaseInitialMove
	PhaseAssets
	PhaseSubsequentMove
)

var phaseNames = [...]string{"before the turn", "Renew AP", "Apply Delayed Effects", "Faction Actions",
	"Initial Movement", "Asset Actions", "Subsequent Movement"}

func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return "phase " + strconv.Itoa(int(p))
	}
	return phaseNames[p]
}

// Param is a parameter an action's order takes.
type Param struct {
	Name     string `json:"name"`
	Text     string `json:"text"`
	Required bool   `json:"required,omitempty"`
}

// Action describes one action of the text.
type Action struct {
	// Key names the action in an Order: "attack", "produce-asset".
	Key  string `json:"key"`
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Special is the chart listing a Special action needs.
	Special string   `json:"special,omitempty"`
	Roll    RollType `json:"roll"`
	// Attr is the Attribute the action rolls with (and Home Turf Advantage
	// applies to): a fixed one, or "" for the acting asset's type.
	Attr     Attr   `json:"attr,omitempty"`
	Cost     string `json:"cost"`
	Duration string `json:"duration"`
	// Rule quotes the text.
	Rule   string  `json:"rule"`
	Params []Param `json:"params,omitempty"`
	Phase  Phase   `json:"phase"`
}

// Actions returns every action, in the order of the text.
func Actions() []Action {
	out := make([]Action, len(registry))
	copy(out, registry)
	for i := range out {
		out[i].Params = slices.Clone(out[i].Params)
	}
	return out
}

// LookupAction returns the action with the key (or name), in any case.
func LookupAction(key string) (Action, bool) {
	if a := lookup(key); a != nil {
		return *a, true
	}
	return Action{}, false
}

func lookup(key string) *Action {
	k := strings.NewReplacer(" ", "-", "_", "-").Replace(strings.ToLower(strings.TrimSpace(key)))
	for i := range registry {
		if registry[i].Key == k || strings.EqualFold(registry[i].Name, key) {
			return &registry[i]
		}
	}
	return nil
}

// Order is what a player queues: an action, the acting asset (for Asset
// Actions) and parameters. A GM's answer to a Question goes in Params under
// the Question's Param.
type Order struct {
	Action string            `json:"action"`
	Asset  int               `json:"asset,omitempty"`
	Params map[string]string `json:"params,omitempty"`
}

// Param returns a parameter, "" when absent.
func (o Order) Param(k string) string { return strings.TrimSpace(o.Params[k]) }

// With returns a copy of the order with the parameter set.
func (o Order) With(k, v string) Order {
	p := make(map[string]string, len(o.Params)+1)
	for key, val := range o.Params {
		p[key] = val
	}
	p[k] = v
	o.Params = p
	return o
}

// Answer is the order with option given to q, its Question. An
// Investigation held before the GM's choice had its own parameter asked
// for target:, which now finds only what the faction knows of: its answer
// goes to gm_target:.
func (o Order) Answer(q Question, option string) Order {
	param := q.Param
	if param == "target" && o.Action == "investigate" {
		param = "gm_target"
	}
	return o.With(param, option)
}

// String renders the order: "attack asset=4 target=9".
func (o Order) String() string {
	parts := []string{o.Action}
	if o.Asset != 0 {
		parts = append(parts, "asset="+strconv.Itoa(o.Asset))
	}
	keys := make([]string, 0, len(o.Params))
	for k := range o.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+o.Params[k])
	}
	return strings.Join(parts, " ")
}

// Question is something the text leaves to a GM (or to another faction):
// the caller asks, sets Order.Params[Param] to one of the Options and
// resolves the order again.
type Question struct {
	Param string `json:"param"`
	// Ask is "gm", or the name of the faction whose consent is needed.
	Ask     string   `json:"ask"`
	Text    string   `json:"text"`
	Options []string `json:"options"`
	// Public, when set, is what the players are told: Text and Options
	// name what only the GMs may see (Investigate's choice among Covert
	// Assets, which "may not be attacked" nor be known by the others).
	Public string `json:"public,omitempty"`
}

// Seen is the Question as a player reads it: with Public for its Text
// and no Options when it holds a secret, else itself.
func (q Question) Seen() Question {
	if q.Public == "" {
		return q
	}
	return Question{Param: q.Param, Ask: q.Ask, Text: q.Public, Public: q.Public}
}

// Secret reports whether only the GMs may read the Question's Text and
// Options.
func (q Question) Secret() bool { return q.Public != "" }

// Seen is the outcome as the players read it: its Questions Seen.
func (o Outcome) Seen() Outcome {
	if len(o.Questions) == 0 {
		return o
	}
	qs := make([]Question, len(o.Questions))
	for i, q := range o.Questions {
		qs[i] = q.Seen()
	}
	o.Questions = qs
	return o
}

// Cost is something paid.
type Cost struct {
	Faction string `json:"faction"`
	What    string `json:"what"` // "AP", "INF", ..., "Plan AP"
	Amount  int    `json:"amount"`
	Note    string `json:"note,omitempty"`
}

func (c Cost) String() string {
	s := c.Faction + " pays " + strconv.Itoa(c.Amount) + " " + c.What
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	return s
}

// leadsIn reports whether a Change's field is a phrase that reads on into
// its value ("arrives at", "captured by", "in round"), which a colon
// would cut: "arrives at Ganymede", not "arrives at: Ganymede".
func leadsIn(field string) bool {
	i := strings.LastIndexByte(field, ' ')
	switch field[i+1:] {
	case "at", "by", "for", "to", "in", "of", "with", "round", "becomes", "proposes":
		return true
	}
	return false
}

// Change is one change to the state.
type Change struct {
	Subject string `json:"subject"`
	Field   string `json:"field"`
	From    string `json:"from,omitempty"`
	To      string `json:"to"`
}

func (c Change) String() string {
	if c.From == "" && leadsIn(c.Field) {
		return c.Subject + " " + c.Field + " " + c.To // "Frigate arrives at Ganymede"
	}
	if c.From == "" {
		return c.Subject + " " + c.Field + ": " + c.To
	}
	return c.Subject + " " + c.Field + " " + c.From + " -> " + c.To
}

// Outcome is what one action did.
type Outcome struct {
	Faction string `json:"faction"`
	Action  string `json:"action"`
	Name    string `json:"name"`
	Asset   int    `json:"asset,omitempty"`
	// Success is false when the action's roll failed (or it was stopped,
	// as an Annexation by a Rally).
	Success   bool       `json:"success"`
	Tests     []Test     `json:"tests,omitempty"`
	Costs     []Cost     `json:"costs,omitempty"`
	Changes   []Change   `json:"changes,omitempty"`
	Effects   []Effect   `json:"effects,omitempty"`
	Questions []Question `json:"questions,omitempty"`
	// Triggered are the actions this one set off: Counter-Attacks,
	// Escapes, free Investigations, Rallies, escape pods.
	Triggered []Outcome `json:"triggered,omitempty"`
	// TurnStart is set when Resolve had to begin the faction's turn first;
	// Arrivals when it entered Initial Movement, where journeys end.
	TurnStart *TurnStart `json:"turn_start,omitempty"`
	Arrivals  []Outcome  `json:"arrivals,omitempty"`
	Notes     []string   `json:"notes,omitempty"`
	Text      string     `json:"text"`
	// Covert is set when the acting asset acted Covertly: a public report
	// must not tell the other players what it did.
	Covert bool `json:"covert,omitempty"`
}

// ActionOption is an action a faction may take right now, with its cost.
type ActionOption struct {
	Action string `json:"action"`
	Name   string `json:"name"`
	Kind   Kind   `json:"kind"`
	Asset  int    `json:"asset,omitempty"`
	// AP is the AP the action costs (before Plan bonuses); Cost the whole
	// cost as text.
	AP   int    `json:"ap"`
	Cost string `json:"cost"`
	// Affordable: the faction has the AP (or it would be its first Asset
	// Action, which is always allowed), or the action costs no AP.
	Affordable bool   `json:"affordable"`
	Label      string `json:"label"`
}

// act is one action being resolved.
type act struct {
	c   *Campaign
	f   *Faction // the faction whose action it is
	o   Order
	r   dice.Roller
	def *Action
	out *Outcome
	a   *Asset   // the acting asset
	own *Faction // its owner (another faction for hired Mercenaries and Double Agents)
	// covert: the acting asset acts Covertly (Laundering, a Mogul Double
	// Agent on its new faction's turn).
	covert bool
	// remote is the Remote grant the action uses, nil when local.
	remote *RemoteGrant
	// planned: a Plan (or the free Plan of Attack (Special)) serves the
	// action; noPlanBonus: that Plan gives no AP (Isolationism).
	planned     bool
	freePlanAP  int
	noPlanBonus bool
	// misdirected is the asset this action Misdirected, this round:
	// freeInvestigate leaves it out as it does one Misdirected before.
	misdirected *Asset
}

// rollError marks an error from the roller: it fails a round, where an
// impossible order is only skipped.
type rollError struct{ err error }

func (e *rollError) Error() string { return e.err.Error() }
func (e *rollError) Unwrap() error { return e.err }

func (x *act) straight(kind RollType, label string, side Side) (Test, error) {
	t, err := Straight(kind, side, x.r)
	if err != nil {
		return t, &rollError{err}
	}
	t.Label = label
	x.out.Tests = append(x.out.Tests, t)
	return t, nil
}

func (x *act) opposed(kind RollType, label string, actor, def Side) (Test, error) {
	t, err := Opposed(kind, actor, def, x.r)
	if err != nil {
		return t, &rollError{err}
	}
	t.Label = label
	x.out.Tests = append(x.out.Tests, t)
	return t, nil
}

func (x *act) param(k string) string { return x.o.Param(k) }

func (x *act) errf(kind error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{kind}, args...)...)
}

func (x *act) intParam(k string, def, lo, hi int) (int, error) {
	s := x.param(k)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, x.errf(ErrBadParam, "%s:%s: give a whole number from %d to %d", k, s, lo, hi)
	}
	return n, nil
}

func (x *act) yes(k string, def bool) (bool, error) {
	switch strings.ToLower(x.param(k)) {
	case "":
		return def, nil
	case "yes", "true", "1", "y", "now":
		return true, nil
	case "no", "false", "0", "n", "later":
		return false, nil
	}
	return false, x.errf(ErrBadParam, "%s:%s: use yes or no", k, x.param(k))
}

func (x *act) attrParam(k string) (Attr, error) {
	s := x.param(k)
	if s == "" {
		return "", x.errf(ErrBadParam, "%s needs %s: (%s)", x.def.Name, k, AttrWords.Use())
	}
	return ParseAttr(s)
}

func (x *act) statParam(k string) (Stat, error) {
	s := x.param(k)
	if s == "" {
		return "", x.errf(ErrBadParam, "%s needs %s: (%s)", x.def.Name, k, StatWords.Use())
	}
	return ParseStat(s)
}

func (x *act) habitatParam(k string, def string) (*Habitat, error) {
	name := x.param(k)
	if name == "" {
		name = def
	}
	if name == "" {
		return nil, x.errf(ErrBadParam, "%s needs %s: (a habitat)", x.def.Name, k)
	}
	h := x.c.Habitat(name)
	if h == nil {
		return nil, x.errf(ErrUnknownHabitat, "no habitat %q", name)
	}
	return h, nil
}

func (x *act) factionParam(k string) (*Faction, error) {
	name := x.param(k)
	if name == "" {
		return nil, x.errf(ErrBadParam, "%s needs %s: (another faction)", x.def.Name, k)
	}
	f := x.c.Faction(name)
	if f == nil {
		return nil, x.errf(ErrUnknownFaction, "no faction %q", name)
	}
	if f == x.f {
		return nil, x.errf(ErrBadParam, "%s: %s:%s is %s itself", x.def.Name, k, name, x.f.Name)
	}
	return f, nil
}

// assetID reads the asset number in the parameter k.
func (x *act) assetID(k string) (int, error) {
	s := x.param(k)
	id, err := strconv.Atoi(strings.TrimPrefix(s, "#"))
	if err != nil {
		return 0, x.errf(ErrBadParam, "%s:%s is not an asset ID", k, s)
	}
	return id, nil
}

// assetParam returns the asset whose ID is in the parameter.
func (x *act) assetParam(k string) (*Asset, *Faction, error) {
	s := x.param(k)
	if s == "" {
		return nil, nil, x.errf(ErrBadParam, "%s needs %s: (an asset ID)", x.def.Name, k)
	}
	id, err := x.assetID(k)
	if err != nil {
		return nil, nil, err
	}
	a, f := x.c.Asset(id)
	if a == nil || !x.c.SeenBy(x.f, f, a) {
		return nil, nil, x.errf(ErrUnknownAsset, "no asset #%d", id)
	}
	return a, f, nil
}

// SeenBy reports whether the faction f knows of a, own's asset: its own,
// one it hired, holds captive or turned, and any that is not Covert. To
// f, any other is an asset that does not exist: "The Asset may not be
// attacked", nor found by its number (issue 20).
func (c *Campaign) SeenBy(f, own *Faction, a *Asset) bool {
	return f == nil || own == f || a.HiredBy == f.Name || a.CapturedBy == f.Name || a.DoubleFor == f.Name || !c.Covert(own, a)
}

// ownAsset returns the asset in the parameter, which must be the acting
// faction's (or, when def is set, the acting asset itself).
func (x *act) ownAsset(k string, self bool) (*Asset, error) {
	if self && x.param(k) == "" && x.a != nil {
		return x.a, nil
	}
	a, f, err := x.assetParam(k)
	if err != nil {
		return nil, err
	}
	if f != x.f && a.HiredBy != x.f.Name {
		return nil, x.errf(ErrUnknownAsset, "%s belongs to %s, not %s", a.Label(), f.Name, x.f.Name)
	}
	return a, nil
}

func (x *act) chartParam(k string) (AssetDef, error) {
	name := x.param(k)
	if name == "" {
		return AssetDef{}, x.errf(ErrBadParam, "%s needs %s: (an asset from the chart)", x.def.Name, k)
	}
	d, ok := x.c.Config.AssetDef(name)
	if !ok {
		return AssetDef{}, x.errf(ErrBadParam, "%q is not in the asset chart", name)
	}
	return d, nil
}

func (x *act) ask(q Question) { x.out.Questions = append(x.out.Questions, q) }

func (x *act) note(format string, args ...any) {
	x.out.Notes = append(x.out.Notes, fmt.Sprintf(format, args...))
}

func (x *act) change(subject, field string, from, to any) {
	x.out.Changes = append(x.out.Changes, Change{Subject: subject, Field: field, From: str(from), To: str(to)})
}

func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case int:
		return strconv.Itoa(v)
	case bool:
		if v {
			return "yes"
		}
		return "no"
	}
	return fmt.Sprint(v)
}

func (x *act) cost(f *Faction, what string, n int, note string) {
	if n == 0 {
		return
	}
	x.out.Costs = append(x.out.Costs, Cost{Faction: f.Name, What: what, Amount: n, Note: note})
}

// queue adds a delayed effect.
func (x *act) queue(e Effect) Effect {
	owner := x.f
	if e.Faction == "" {
		e.Faction = x.f.Name
	} else if g := x.c.Faction(e.Faction); g != nil {
		owner = g
	}
	e.ID = x.c.newID(owner)
	e.Created = x.c.Round
	if e.Source == "" {
		e.Source = x.def.Key
	}
	x.c.Effects = append(x.c.Effects, e)
	x.out.Effects = append(x.out.Effects, e)
	return e
}

// payStat pays a cost in a Health Stat; the caller has checked it is there.
func (x *act) payStat(f *Faction, s Stat, n int, note string) {
	if n <= 0 {
		return
	}
	from := f.Stats.Get(s)
	f.Stats.Set(s, from-n)
	x.cost(f, string(s), n, note)
	x.change(f.Name, string(s), from, from-n)
}

func (x *act) checkStat(f *Faction, s Stat, n int, what string) error {
	if have := f.Stats.Get(s); have < n {
		return x.errf(ErrNotEnoughStat, "%s costs %d %s and %s has %d", what, n, s, f.Name, have)
	}
	return nil
}

// damageStat does Stat damage, which stops at 0; it returns the damage
// done.
func (x *act) damageStat(f *Faction, s Stat, n int, note string) int {
	from := f.Stats.Get(s)
	n = min(max(n, 0), from)
	if n == 0 {
		return 0
	}
	f.Stats.Set(s, from-n)
	x.cost(f, string(s), n, note)
	x.change(f.Name, string(s), from, from-n)
	return n
}

// healStat heals a Health Stat up to its full value; it returns the points
// healed.
func (x *act) healStat(f *Faction, s Stat, n int, why string) int {
	from := f.Stats.Get(s)
	to := min(from+n, max(x.c.StatMax(f, s), from))
	if to == from {
		return 0
	}
	f.Stats.Set(s, to)
	x.change(f.Name, string(s)+" ("+why+")", from, to)
	return to - from
}

// attr is the Attribute the action is of: fixed, or the acting asset's
// type.
func (x *act) attr() Attr {
	if x.def.Attr != "" {
		return x.def.Attr
	}
	if x.a != nil {
		return x.a.Type
	}
	return ""
}

// assetAP is an Asset Action's AP cost after memes: "Produce actions cost 1
// AP less", "RES and COH actions cost 1 AP less", "INT actions cost 1 AP
// less", "Mogul actions are free".
func (x *act) assetAP(base int) int {
	disc := 0
	for _, m := range x.c.ActiveMemes(x.f) {
		if m.FreeTrait != "" && x.a != nil && x.a.Has(m.FreeTrait) {
			return 0
		}
		if m.APDiscount > 0 && (slices.Contains(m.DiscountActions, baseKey(x.def.Key)) || slices.Contains(m.DiscountAttrs, x.attr())) {
			disc += m.APDiscount
		}
	}
	return max(base-disc, 0)
}

// baseKey is the Standard action a Special form belongs to.
func baseKey(k string) string { return strings.TrimSuffix(k, "-special") }

// plan returns the best Plan bonus for the acting asset's action: "NOT
// cumulative with other Plan actions".
func (x *act) plan() (idx, ap int) {
	idx = -1
	if x.a == nil {
		return idx, 0
	}
	for i, p := range x.f.Turn.Plans {
		if p.Asset == x.a.ID && baseKey(p.Action) == baseKey(x.def.Key) && (idx < 0 || p.AP > ap) {
			idx, ap = i, p.AP
		}
	}
	return idx, ap
}

func (x *act) planAP() int {
	_, ap := x.plan()
	ap = max(ap, x.freePlanAP)
	if x.noPlanBonus {
		return 0
	}
	return ap
}

// PayMode is how an action's AP cost is paid: its pay parameter.
type PayMode string

// The ways to pay.
const (
	// PayAP pays from AP, a Plan's AP first.
	PayAP PayMode = "ap"
	// PayStat pays "at a cost of damage to the Faction's related Stat
	// instead of AP".
	PayStat PayMode = "stat"
	// PayAuto pays from AP, then the Stat.
	PayAuto PayMode = "auto"
)

// PayModes are the words of the pay parameter, in any case; "" is ap.
var PayModes = Words[PayMode]{
	Values:  []PayMode{PayAP, PayStat, PayAuto},
	Also:    map[string]PayMode{"": PayAP},
	Same:    sameWord,
	Mistake: "pay:%s",
}

// payMode reads the pay parameter (PayModes); a mistake quotes it in
// lower case.
func (x *act) payMode() (PayMode, error) {
	return PayModes.Parse(strings.ToLower(x.param("pay")))
}

// checkAP says whether the faction can pay an AP cost: from AP (a Plan's AP
// first), or, with pay:stat, "at a cost of damage to the Faction's related
// Stat instead of AP" (pay:auto: AP, then the Stat). The first Asset Action
// of a turn is always allowed: "minimum 1 Asset Action with no Stat
// damage".
func (x *act) checkAP(cost int, stat Stat) error {
	mode, err := x.payMode()
	if err != nil {
		return err
	}
	need := max(cost-x.planAP(), 0)
	what := x.def.Name
	if x.a != nil {
		what += " with " + x.a.Label()
	}
	switch mode {
	case PayAP:
		if need <= x.f.AP || (x.def.Kind.Asset() && x.f.Turn.AssetActions == 0) {
			return nil
		}
		return x.errf(ErrNotEnoughAP, "%s costs %d AP and %s has %d left (pay:stat pays it as %s damage instead)",
			what, need, x.f.Name, x.f.AP, stat)
	case PayStat:
		return x.checkStat(x.f, stat, need, what)
	default:
		if have := x.f.AP + x.f.Stats.Get(stat); need > have {
			return x.errf(ErrNotEnoughStat, "%s costs %d AP and %s has %d AP and %d %s", what, need, x.f.Name, x.f.AP, x.f.Stats.Get(stat), stat)
		}
	}
	return nil
}

// payAP pays what checkAP allowed.
func (x *act) payAP(cost int, stat Stat) {
	mode, _ := x.payMode()
	idx, ap := x.plan()
	if x.freePlanAP > ap {
		idx, ap = -1, x.freePlanAP
		if cost > 0 && !x.noPlanBonus {
			x.cost(x.f, "Plan AP", min(ap, cost), "the free Plan of Attack (Special)")
		}
	} else if idx >= 0 {
		p := x.f.Turn.Plans[idx]
		if p.Covert {
			x.covert = true
		}
		if !x.noPlanBonus {
			// No effect number: another faction may read this, and the
			// faction's effects count its Covert doings too.
			x.cost(x.f, "Plan AP", min(ap, cost), "from the Plan")
		}
		x.f.Turn.Plans = slices.Delete(x.f.Turn.Plans, idx, idx+1)
	}
	if x.noPlanBonus {
		ap = 0
	}
	need := max(cost-ap, 0)
	if need == 0 {
		return
	}
	switch mode {
	case PayAP:
		if need > x.f.AP {
			x.cost(x.f, "AP", x.f.AP, fmt.Sprintf("costs %d: a turn's first Asset Action is always allowed", need))
			x.f.AP = 0
			return
		}
		x.f.AP -= need
		x.cost(x.f, "AP", need, "")
	case PayStat:
		x.payStat(x.f, stat, need, "instead of AP")
	default:
		fromAP := min(need, x.f.AP)
		x.f.AP -= fromAP
		x.cost(x.f, "AP", fromAP, "")
		x.payStat(x.f, stat, need-fromAP, "instead of AP")
	}
}

// assetSide is an asset's side of a roll for an action of Attribute attr:
// Level x 2 at its damaged value ("rolls use the damaged value"), its
// upgrades for rolls of its own type, and, when withHTA, Home Turf
// Advantage less what a Remote ignores. Opposed rolls include Home Turf
// Advantage ("Includes Home Turf Advantage unless otherwise noted");
// straight ones only where the text marks them "(+HTA)".
func (c *Campaign) assetSide(f *Faction, a *Asset, attr Attr, ignoreHTA int, withHTA bool) Side {
	s := Side{Name: a.Label() + " (" + f.Name + ")", Parts: []Part{levelPart(a.Health)}}
	if a.Upgrade > 0 && a.Type == attr {
		s.Parts = append(s.Parts, Part{Name: "upgrade", Value: a.Upgrade})
	}
	if !withHTA {
		return s
	}
	if hta := c.hta(f, a, attr); hta > 0 {
		if ignoreHTA > 0 {
			s.Parts = append(s.Parts, Part{Name: "Home Turf " + string(attr) + " less Remote", Value: max(hta-ignoreHTA, 0)})
		} else {
			s.Parts = append(s.Parts, Part{Name: "Home Turf " + string(attr), Value: hta})
		}
	}
	return s
}

// hta is Home Turf Advantage: "An Asset in its own Faction's territory may
// use the Faction's Attribute as a Roll Bonus in addition to its own. This
// only applies to actions of the Asset's Related Attribute." Memes may let
// a Stat serve instead.
func (c *Campaign) hta(f *Faction, a *Asset, attr Attr) int {
	if a.Type != attr || !c.Home(f, a.Location) || a.Transit != nil {
		return 0
	}
	v := c.Attribute(f, attr)
	for _, m := range c.ActiveMemes(f) {
		if m.HTAStat == "" || (m.HTAFor != "" && m.HTAFor != attr) {
			continue
		}
		s := f.Stats.Get(m.HTAStat)
		if m.HTAMode == "instead" {
			v = s
		} else {
			v = max(v, s)
		}
	}
	return max(v, 0)
}

func (c *Campaign) factionSide(f *Faction, attr Attr) Side {
	return Side{Name: f.Name, Parts: []Part{{Name: string(attr), Value: c.Attribute(f, attr)}}}
}

// controls reports whether faction f may order asset a, owned by own: its
// own asset not hired out, a Mercenary it hired, or a Double Agent acting
// for it (except Move).
func controls(f, own *Faction, a *Asset, key string) bool {
	switch {
	case a.HiredBy != "":
		return a.HiredBy == f.Name
	case own.Name == f.Name:
		return true
	case a.DoubleFor == f.Name:
		return key != "move"
	}
	return false
}

// bind finds the acting asset and checks it may act.
func (x *act) bind() error {
	if x.o.Asset == 0 {
		return x.errf(ErrBadParam, "%s is an Asset Action: name the acting asset (asset:)", x.def.Name)
	}
	a, own := x.c.Asset(x.o.Asset)
	if a == nil || !x.c.SeenBy(x.f, own, a) {
		return x.errf(ErrUnknownAsset, "no asset #%d", x.o.Asset)
	}
	if !controls(x.f, own, a, x.def.Key) {
		switch {
		case own == x.f && a.HiredBy != "":
			return x.errf(ErrCannotAct, "%s is hired out to %s", a.Label(), a.HiredBy)
		case a.DoubleFor == x.f.Name:
			return x.errf(ErrCannotAct, "a Double Agent acts for its new faction \"(except Move)\"")
		}
		return x.errf(ErrUnknownAsset, "%s belongs to %s, not %s", a.Label(), own.Name, x.f.Name)
	}
	x.a, x.own = a, own
	moveSubsequent := x.def.Key == "move" && x.phase() == PhaseSubsequentMove
	switch {
	case a.CapturedBy != "":
		return x.errf(ErrCannotAct, "%s is held captive by %s", a.Label(), a.CapturedBy)
	case a.Duplicate && x.def.Key != "convert-duplicate":
		return x.errf(ErrCannotAct, "%s is a duplicate: \"unusable until it is converted\" (convert-duplicate)", a.Label())
	case a.Health <= 0:
		return x.errf(ErrCannotAct, "%s is at Level 0: repair it first", a.Label())
	case a.BusyUntil > x.c.Round:
		return x.errf(ErrCannotAct, "%s is being converted until round %d", a.Label(), a.BusyUntil)
	case a.Blocked == x.c.Round:
		return x.errf(ErrCannotAct, "%s was Misdirected: no action this round", a.Label())
	case a.Transit != nil && x.def.Key != "move":
		return x.errf(ErrCannotAct, "%s is in transit to %s (arrives round %d)", a.Label(), a.Transit.To, a.Transit.Arrive)
	case x.def.Special != "" && !a.Has(x.def.Special):
		return x.errf(ErrNotAvailable, "the asset chart lists no %s for %s (%s)", x.def.Name, a.Label(), a.Chart)
	}
	if slices.Contains(x.f.Turn.Acted, a.ID) && !slices.Contains(x.f.Turn.Extra, a.ID) &&
		!(moveSubsequent && (a.Revealed || a.EscapeFailed)) {
		return x.errf(ErrAlreadyActed, "%s has already acted this turn (\"Each Asset may only act once per turn\")", a.Label())
	}
	if a.DoubleFor == x.f.Name && own != x.f && a.Has(TraitMogul) {
		x.covert = true // "If a Mogul is made a Double Agent, it only acts Covertly on the new Faction's Turn."
	}
	return nil
}

func (x *act) phase() Phase {
	if x.def.Key == "move" && strings.EqualFold(x.param("phase"), "subsequent") {
		return PhaseSubsequentMove
	}
	return x.def.Phase
}

// acted records that the acting asset acted.
func (x *act) acted() {
	if x.a == nil {
		return
	}
	if i := slices.Index(x.f.Turn.Extra, x.a.ID); i >= 0 && slices.Contains(x.f.Turn.Acted, x.a.ID) {
		x.f.Turn.Extra = slices.Delete(x.f.Turn.Extra, i, i+1)
	} else if !slices.Contains(x.f.Turn.Acted, x.a.ID) {
		x.f.Turn.Acted = append(x.f.Turn.Acted, x.a.ID)
	}
	if x.own != x.f && x.a.DoubleFor == x.f.Name {
		x.a.DoubleActed = x.c.Round
	}
	if x.def.Key != "move" {
		x.a.Aboard = 0 // it has left the vehicle that brought it
	}
}

// remoteFor returns the acting asset's Remote grant for this turn.
func (x *act) remoteGrant() *RemoteGrant {
	for i := range x.f.Turn.Remotes {
		if x.a != nil && x.f.Turn.Remotes[i].Asset == x.a.ID {
			return &x.f.Turn.Remotes[i]
		}
	}
	return nil
}

// reach checks the acting asset can act on something at where: it is
// there, or it was enabled to "perform an action Remotely next Round".
func (x *act) reach(where, what string) error {
	if x.a.Location == where && where != "" {
		return nil
	}
	if g := x.remoteGrant(); g != nil {
		x.remote = g
		return nil
	}
	return x.errf(ErrNotAvailable, "%s is %s and %s is %s: act there, or Remote first", x.a.Label(), at(x.a.Location), what, at(where))
}

// at is where an asset is, in words: "at Mars", or "in transit" for an
// asset between habitats (no location).
func at(location string) string {
	if location == "" {
		return "in transit"
	}
	return "at " + location
}

// useRemote spends the Remote grant used.
func (x *act) useRemote() {
	if x.remote == nil {
		return
	}
	id := x.remote.Effect
	x.f.Turn.Remotes = slices.DeleteFunc(x.f.Turn.Remotes, func(g RemoteGrant) bool { return g.Effect == id })
	x.note("acted Remotely, away from where it stands: the Remote grant #%d is used up", id)
}

// mustPlan applies the target faction's memes that make attacks against it
// need a Plan: Isolationism ("remote attacks against the faction must be
// Planned, and that Plan gives no bonus") and Security Clearance ("INT
// attacks against the faction must be Planned").
func (x *act) mustPlan(target *Faction) error {
	for _, m := range x.c.ActiveMemes(target) {
		var need bool
		switch m.PlanRequired {
		case "remote":
			need = x.remote != nil
		case "INT":
			need = x.attr() == INT
		}
		if !need {
			continue
		}
		if idx, _ := x.plan(); idx < 0 && !x.planned {
			return x.errf(ErrNotAvailable, "%s's %s: this attack must be Planned first", target.Name, m.Name)
		}
		if m.PlanNoBonus {
			x.noPlanBonus = true
		}
	}
	return nil
}

// Resolve applies one order of a faction in the campaign's current round:
// its rolls, costs, state changes and delayed effects. It begins the
// faction's turn first (Renew AP, Apply Delayed Effects) when the faction
// has not had its turn this round. An impossible order is an error that
// names the problem (wrapping ErrNotEnoughAP, ErrUnknownAsset,
// ErrWrongPhase and the like). When the text leaves a decision to the GM
// (or to another faction), the Outcome holds Questions and nothing is
// applied: answer in the order's Params and resolve again. Either way c is
// unchanged unless the action was applied. It is applied by resolving on a
// copy that then replaces *c, so *Faction and *Asset pointers taken from c
// before the call are stale after it: look them up again.
//
// Dice are d10s, taken in the order the rolls happen; in an opposed roll the
// acting side's die comes first; a Counter-Attack, Escape or free
// Investigation it sets off rolls after it, a Rally interrupting an
// Annexation before the Annexation roll.
func Resolve(c *Campaign, faction string, o Order, r dice.Roller) (Outcome, error) {
	work := c.Clone()
	f := work.Faction(faction)
	if f == nil {
		return Outcome{}, fmt.Errorf("%w: %q", ErrUnknownFaction, faction)
	}
	var start *TurnStart
	if f.Turn.Round != work.Round {
		ts := work.beginTurn(f)
		start = &ts
	}
	ap, stats := f.AP, f.Stats
	out, err := work.resolve(f, o, r)
	if err != nil {
		return out, err
	}
	if out.Covert && len(out.Questions) == 0 {
		f.Turn.hideCosts(ap-f.AP, stats, f.Stats)
	}
	work.NumberSeen()
	out.TurnStart = start
	if len(out.Questions) == 0 {
		*c = *work
	}
	return out, nil
}

// resolve applies an order to c, which the caller may throw away.
func (c *Campaign) resolve(f *Faction, o Order, r dice.Roller) (Outcome, error) {
	def := lookup(o.Action)
	if def == nil {
		return Outcome{}, fmt.Errorf("%w: %q (see the list of actions)", ErrUnknownAction, o.Action)
	}
	o.Action = def.Key
	x := &act{c: c, f: f, o: o, r: r, def: def, out: &Outcome{Faction: f.Name, Action: def.Key, Name: def.Name, Asset: o.Asset}}
	fail := func(err error) (Outcome, error) { return *x.out, err }
	if def.Kind == KindTriggered && def.Key != "convert-duplicate" {
		return fail(x.errf(ErrTriggered, "%s is triggered (%s), not ordered", def.Name, def.Duration))
	}
	if def.Key == "counter-attack" {
		return fail(x.errf(ErrTriggered, "Counter-Attack is taken when the asset is attacked: \"Attacked Assets may Attack their attacker for free in the same Turn they are attacked\""))
	}
	p := x.phase()
	if def.Kind != KindFree && p < f.Turn.Phase {
		return fail(x.errf(ErrWrongPhase, "%s belongs to %s (phase %d) and %s is already in %s (phase %d)",
			def.Name, p, int(p), f.Name, f.Turn.Phase, int(f.Turn.Phase)))
	}
	if f.Turn.Exclusive && !(def.Kind == KindFree && def.Key != "pay") {
		return fail(x.errf(ErrCannotAct, "%s's Research takes the whole turn: \"No Faction Actions or other Asset Actions in the entire Turn\"", f.Name))
	}
	if def.Kind == KindFaction && f.Turn.FactionAction != "" {
		return fail(x.errf(ErrAlreadyActed, "%s has taken its Faction Action this turn (%s): \"Each Faction takes ONE Faction Action\"", f.Name, f.Turn.FactionAction))
	}
	if def.Kind != KindFree && p >= PhaseInitialMove && f.Turn.Phase < PhaseInitialMove {
		// Entering Initial Movement: "Mobile Assets move in this phase",
		// and those under way arrive.
		arr, err := c.enterMovement(f, r)
		if err != nil {
			return fail(err)
		}
		x.out.Arrivals = arr
	}
	if def.Kind.Asset() {
		if err := x.bind(); err != nil {
			return fail(err)
		}
	}
	if err := x.run(); err != nil {
		return fail(err)
	}
	x.out.Covert = x.covert || (x.a != nil && x.own != nil && c.Covert(x.own, x.a))
	if len(x.out.Questions) > 0 {
		x.out.Text = def.Name + ": waiting for an answer: " + x.out.Questions[0].Seen().Text
		return *x.out, nil
	}
	if def.Kind != KindFree {
		f.Turn.Phase = max(f.Turn.Phase, p)
	}
	if def.Kind == KindFaction {
		f.Turn.FactionAction = def.Key
	}
	if def.Kind.Asset() {
		f.Turn.AssetActions++
		x.acted()
	}
	if x.out.Text == "" {
		x.out.Text = x.summary()
	}
	return *x.out, nil
}

func (x *act) summary() string {
	var b strings.Builder
	b.WriteString(x.f.Name + ": " + x.def.Name)
	if x.a != nil {
		b.WriteString(" with " + x.a.Label())
	}
	for _, t := range x.out.Tests {
		b.WriteString("; " + t.verdict())
	}
	if len(x.out.Changes) > 0 {
		b.WriteString("; " + x.out.Changes[0].String())
		if n := len(x.out.Changes) - 1; n > 0 {
			b.WriteString(" (+" + strconv.Itoa(n) + " more)")
		}
	}
	if len(x.out.Effects) > 0 {
		e := x.out.Effects[0]
		b.WriteString("; " + e.Note + " in round " + strconv.Itoa(e.Due))
	}
	return b.String()
}

// run dispatches to the action's rule.
func (x *act) run() error {
	x.out.Success = true
	switch x.def.Key {
	case "regroup":
		return x.regroup()
	case "invest", "asset-invest":
		return x.invest()
	case "maintenance":
		return x.maintenance()
	case "repair", "asset-repair":
		return x.repair()
	case "annex":
		return x.annex()
	case "produce-asset":
		return x.produceAsset()
	case "purchase":
		return x.purchase()
	case "hire-mercenaries":
		return x.hireMercenaries()
	case "rally":
		return x.rally()
	case "repurpose":
		return x.repurpose()
	case "mandate":
		return x.mandate()
	case "diplomacy", "asset-diplomacy":
		return x.diplomacy()
	case "attack", "attack-special":
		return x.attack()
	case "move":
		return x.move()
	case "produce":
		return x.produce()
	case "plan", "plan-special", "laundering":
		return x.planAction()
	case "subterfuge":
		return x.subterfuge()
	case "remote":
		return x.remoteAction()
	case "capture":
		return x.capture()
	case "investigate":
		return x.investigate()
	case "misdirect":
		return x.misdirect()
	case "sabotage":
		return x.sabotage()
	case "turn-agent":
		return x.turnAgent()
	case "research":
		return x.research()
	case "convert-duplicate":
		return x.convertDuplicate()
	case "pay":
		return x.pay()
	case "release-mercenary":
		return x.releaseMercenary()
	case "eliminate":
		return x.eliminate()
	case "give-upgrade":
		return x.giveUpgrade()
	}
	return x.errf(ErrUnknownAction, "%s has no rule", x.def.Name)
}

// isOrderError tells an impossible order (skipped in a round) from a
// failure of the roller (which fails the round).
func isOrderError(err error) bool {
	var re *rollError
	return !errors.As(err, &re)
}
