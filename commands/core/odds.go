package core

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// OddsResult is the structured outcome of /odds, the console's `result`.
// Mean, StdDev and Distribution are of the expression; PWin, PTie and
// PLose compare it with versus.
type OddsResult struct {
	Mean         float64  `json:"mean"`
	StdDev       float64  `json:"stddev"`
	Distribution OddsDist `json:"distribution"`
	// Omitted is set when the distribution has more than OddsListed
	// values: Distribution then lists the run of OddsListed values that
	// holds the most probability, and Omitted what it leaves out.
	Omitted  *OddsOmitted `json:"distribution_omitted,omitempty"`
	PAtLeast *float64     `json:"p_at_least,omitempty"` // with target
	PWin     *float64     `json:"p_win,omitempty"`      // with versus
	PTie     *float64     `json:"p_tie,omitempty"`
	PLose    *float64     `json:"p_lose,omitempty"`
	// PCut is, for dice that explode, at most how far any chance of
	// the result may be from the true one: explosions are followed until
	// a longer chain is less likely than dice.OddsTailCut a die.
	PCut *float64 `json:"p_cut,omitempty"`
	// Exact is false when a distribution was estimated by rolling.
	Exact bool `json:"exact"`
}

// OddsDist is values a roll can take with their probabilities, in
// increasing order of value: every one, or in OddsResult the OddsListed
// most likely in a run (see OddsResult.Omitted). It encodes as one JSON
// object, {"3": 0.00462962963, "4": ...}, in that order.
type OddsDist []OddsValue

// OddsListed is how many values the distribution of OddsResult lists at
// most: every value of a roll of 100d100 (9,901) and at most about 250 kB
// of JSON. 1000d1000 takes 822,099 values above 1e-308, far more than a
// reader of one JSON line can use; its mean, standard deviation and
// p_at_least stay exact whatever the width.
const OddsListed = 10_001

// OddsOmitted is what a distribution of OddsResult leaves out: how many
// values, and their probability below the first value listed and above
// the last.
type OddsOmitted struct {
	Values int     `json:"values"`
	PBelow float64 `json:"p_below"`
	PAbove float64 `json:"p_above"`
}

// OddsValue is one value of a distribution and its probability.
type OddsValue struct {
	Value int
	P     float64
}

func (d OddsDist) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(d)*24)
	b = append(b, '{')
	for i, v := range d {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(v.Value), 10)
		b = append(b, '"', ':')
		b = strconv.AppendFloat(b, v.P, 'g', -1, 64)
	}
	return append(b, '}'), nil
}

// oddsSide is one expression of /odds and its distribution.
type oddsSide struct {
	expr *dice.Expr
	dist *dice.Dist
}

func (h *handlers) odds(ctx context.Context, req *kit.Request) (kit.Response, error) {
	a, err := h.oddsOf(ctx, req.Options.String("expression"), "")
	if err != nil {
		return kit.Response{}, err
	}
	var b *oddsSide
	if text := strings.TrimSpace(req.Options.String("versus")); text != "" {
		if b, err = h.oddsOf(ctx, text, "versus: "); err != nil {
			return kit.Response{}, err
		}
	}
	q := oddsQuestion{a: a, b: b}
	q.target, q.hasTarget = req.Options.Int("target")
	if b != nil {
		q.win, q.tie, q.lose = dice.Opposed(a.dist, b.dist)
	}
	png, err := oddsChart(a, b, q.clampedTarget())
	if err != nil {
		return kit.Response{}, fmt.Errorf("draw odds of %s: %w", a.expr, err)
	}
	result := q.result()
	return kit.Response{
		Embeds:    []kit.Embed{q.embed(result.Exact)},
		Files:     []kit.File{{Name: oddsFile, ContentType: "image/png", Data: png}},
		Ephemeral: req.Options.Bool("private"),
		Result:    result,
	}, nil
}

// oddsQuestion is what /odds was asked: the distribution of a, against b
// when versus: is given, and the chance of at least target.
type oddsQuestion struct {
	a, b      *oddsSide
	target    int64
	hasTarget bool
	// win, tie and lose are a's chances against b.
	win, tie, lose float64
}

// clampedTarget is the target as a value of the distribution, or nil.
func (q oddsQuestion) clampedTarget() *int {
	if !q.hasTarget {
		return nil
	}
	return ptr(clampInt(q.target))
}

// result is the console's `result` of the question.
func (q oddsQuestion) result() OddsResult {
	a, b := q.a, q.b
	result := OddsResult{
		Mean:   round12(a.dist.Mean()),
		StdDev: round12(a.dist.StdDev()),
		Exact:  a.dist.Exact && (b == nil || b.dist.Exact),
	}
	result.Distribution, result.Omitted = listed(a.dist)
	if t := q.clampedTarget(); t != nil {
		result.PAtLeast = ptr(round12(a.dist.AtLeast(*t)))
	}
	if b != nil {
		result.PWin, result.PTie, result.PLose = ptr(round12(q.win)), ptr(round12(q.tie)), ptr(round12(q.lose))
	}
	if cut := a.dist.Cut + cutOf(b); cut > 0 && result.Exact {
		result.PCut = ptr(round12(cut))
	}
	return result
}

// listed returns the values of d for the console, all of them or the
// run of OddsListed that holds the most probability, and what it leaves
// out.
func listed(d *dice.Dist) (OddsDist, *OddsOmitted) {
	all := make(OddsDist, 0, d.Len())
	for v, p := range d.All() {
		all = append(all, OddsValue{v, p})
	}
	if len(all) <= OddsListed {
		for i := range all {
			all[i].P = round12(all[i].P)
		}
		return all, nil
	}
	// The window of OddsListed values with the largest sum, the first
	// among equals.
	best, sum, bestSum := 0, 0.0, -1.0
	for i, v := range all {
		sum += v.P
		if i >= OddsListed {
			sum -= all[i-OddsListed].P
		}
		if i >= OddsListed-1 && sum > bestSum {
			best, bestSum = i-OddsListed+1, sum
		}
	}
	om := &OddsOmitted{Values: len(all) - OddsListed}
	for _, v := range all[:best] {
		om.PBelow += v.P
	}
	// From the far end, so that a small tail keeps its digits.
	for i := len(all) - 1; i >= best+OddsListed; i-- {
		om.PAbove += all[i].P
	}
	om.PBelow, om.PAbove = round12(om.PBelow), round12(om.PAbove)
	out := all[best : best+OddsListed]
	for i := range out {
		out[i].P = round12(out[i].P)
	}
	return out, om
}

// embed is the answer's embed; its chart is the attachment oddsFile.
func (q oddsQuestion) embed(exact bool) kit.Embed {
	a, b := q.a, q.b
	title := "Odds of " + kit.EscapeInline(a.expr.String())
	// A figure of an estimate says so, and from how many rolls, so that
	// it is never read as exact.
	of := func(name string, sides ...*oddsSide) string {
		n := 0
		for _, s := range sides {
			if s != nil && !s.dist.Exact {
				n = max(n, s.dist.Samples)
			}
		}
		if n == 0 {
			return name
		}
		return fmt.Sprintf("%s (estimated from %s rolls)", name, kit.Thousands(n))
	}
	fields := []kit.Field{
		{Name: of("Mean", a), Value: kit.Decimal(a.dist.Mean()), Inline: true},
		{Name: of("Standard deviation", a), Value: kit.Decimal(a.dist.StdDev()), Inline: true},
		oddsRange(a),
		likely(a),
	}
	if t := q.clampedTarget(); t != nil {
		fields = append(fields, kit.Field{Name: of(fmt.Sprintf("At least %d", q.target), a), Value: kit.Percent(a.dist.AtLeast(*t)), Inline: true})
	}
	if b != nil {
		title += " versus " + kit.EscapeInline(b.expr.String())
		fields = append(fields,
			kit.Field{Name: of("Win", a, b), Value: kit.Percent(q.win), Inline: true},
			kit.Field{Name: of("Tie", a, b), Value: kit.Percent(q.tie), Inline: true},
			kit.Field{Name: of("Lose", a, b), Value: kit.Percent(q.lose), Inline: true},
			kit.Field{Name: of("Versus "+kit.EscapeInline(b.expr.String()), b), Value: fmt.Sprintf("mean %s, standard deviation %s", kit.Decimal(b.dist.Mean()), kit.Decimal(b.dist.StdDev()))},
		)
	}
	footer := exactness(a, b)
	if !exact {
		var est []string
		for _, s := range []*oddsSide{a, b} {
			if s != nil && !s.dist.Exact {
				est = append(est, fmt.Sprintf("%s estimated from %s rolls", s.expr, kit.Thousands(s.dist.Samples)))
			}
		}
		footer = strings.Join(est, "; ") + ": beyond what is worked out exactly"
	}
	return kit.Embed{Title: title, Fields: fields, Footer: footer, Image: "attachment://" + oddsFile}
}

const oddsFile = "odds.png"

// oddsRange is the field that gives the range of s: the whole range of
// its expression where it can be said, never only the values worked out
// or rolled as if they were all. An exact distribution leaves out the
// values too unlikely for a float64 (1000d6 showing 1000 has a chance of
// 6^-1000) and those of explosions longer than it follows; an estimate,
// the values its rolls did not show.
func oddsRange(s *oddsSide) kit.Field {
	d := s.dist
	lo, hi, ok := s.expr.Bounds()
	switch {
	case ok && s.expr.Explodes():
		// A die explodes at most dice.MaxExplosions times in a row:
		// 1000d6! reaches 606000, a total no one will see. Say what
		// the bound is, and where the totals fall.
		v := fmt.Sprintf("at least %d, at most %d (a die explodes at most %d times in a row)", lo, hi, dice.MaxExplosions)
		if d.Exact {
			l, h := shown(d)
			v += fmt.Sprintf("; %s of totals are %d to %d", likelyShare, l, h)
		} else {
			v += fmt.Sprintf("; seen in %s rolls: %d to %d", kit.Thousands(d.Samples), d.Min(), d.Max())
		}
		return kit.Field{Name: "Range", Value: v, Inline: true}
	case ok && d.Exact:
		return kit.Field{Name: "Range", Value: fmt.Sprintf("%d to %d", lo, hi), Inline: true}
	case ok:
		// The whole range comes from the expression itself; the rolls
		// only show where most totals fall.
		return kit.Field{Name: "Range", Value: fmt.Sprintf("%d to %d (seen in %s rolls: %d to %d)", lo, hi, kit.Thousands(d.Samples), d.Min(), d.Max()), Inline: true}
	case d.Exact:
		return kit.Field{Name: "Range worked out (not the whole range)", Value: fmt.Sprintf("%d to %d", d.Min(), d.Max()), Inline: true}
	default:
		return kit.Field{Name: fmt.Sprintf("Range seen in %s rolls (not the whole range)", kit.Thousands(d.Samples)), Value: fmt.Sprintf("%d to %d", d.Min(), d.Max()), Inline: true}
	}
}

// likelyShare is the share of totals that shown's range holds, at least:
// all but chartTail on either side.
const likelyShare = "99.9%"

// minSeen is how many times each value "Most likely" lists from an
// estimate must have been rolled: about 3% of relative error. Below it
// (2d1000000, each total rolled a few times in 100,000), which values
// came up most is chance, and the field gives the middle 90% of the
// rolls instead.
const minSeen = 1000

// likely is the field of s's most likely values; for an estimate whose
// values were each rolled too rarely to rank, the range of its middle
// 90% of rolls.
func likely(s *oddsSide) kit.Field {
	d := s.dist
	if d.Exact {
		return kit.Field{Name: "Most likely", Value: mostLikely(d, 5)}
	}
	est := fmt.Sprintf(" (estimated from %s rolls)", kit.Thousands(d.Samples))
	top := d.MostLikely(5)
	if len(top) > 0 && d.P(top[len(top)-1])*float64(d.Samples) >= minSeen {
		return kit.Field{Name: "Most likely" + est, Value: mostLikely(d, 5)}
	}
	lo, hi := quantile(d, 0.05), quantile(d, 0.95)
	return kit.Field{Name: "Middle 90% of rolls" + est, Value: fmt.Sprintf("%d to %d", lo, hi)}
}

// quantile returns the least value v of d with P(total <= v) >= q.
func quantile(d *dice.Dist, q float64) int {
	sum := 0.0
	for v, p := range d.All() {
		if sum += p; sum >= q {
			return v
		}
	}
	return d.Max()
}

// exactness is the footer of an answer worked out exactly: "Exact", or
// for dice that explode, how near: the calculation follows an explosion
// until a longer chain is less likely than dice.OddsTailCut, and every
// chance it gives is within the dists' Cut of the true one.
func exactness(a, b *oddsSide) string {
	cut := a.dist.Cut
	if b != nil {
		cut += b.dist.Cut
	}
	if cut <= 0 {
		return "Exact"
	}
	return fmt.Sprintf("Exact to 1 in %s: an explosion is followed until a longer chain is less likely than 1 in %s",
		powerOfTen(cut), powerOfTen(dice.OddsTailCut))
}

// powerOfTen writes the least power of ten whose inverse is at least p,
// as "10^9" for 3.5e-10: a chance p is "1 in 10^9" or less.
func powerOfTen(p float64) string {
	return fmt.Sprintf("10^%d", int(math.Floor(-math.Log10(p)+1e-9)))
}

// bigOddsValues is the width of range from which working out a
// distribution waits for one of h.bigOdds's slots: 3d6 or 100d100 never
// waits behind 1000d1000.
const bigOddsValues = 10_000

// oddsOf parses text and works out its distribution. A mistake in text is
// a *UserError, its message prefixed with prefix.
func (h *handlers) oddsOf(ctx context.Context, text, prefix string) (*oddsSide, error) {
	text, _ = dice.Translate(text)
	e, err := dice.Parse(text)
	if err == nil {
		if lo, hi, ok := e.Bounds(); ok && int64(hi)-int64(lo) >= bigOddsValues {
			select {
			case h.bigOdds <- struct{}{}:
				defer func() { <-h.bigOdds }()
			case <-ctx.Done():
				return nil, fmt.Errorf("wait to work out the odds of %s: %w", text, ctx.Err())
			}
		}
		var d *dice.Dist
		if d, err = e.Distribution(h.Roller()); err == nil {
			return &oddsSide{expr: e, dist: d}, nil
		}
	}
	err = kit.DiceError(err)
	if ue, ok := kit.AsUserError(err); ok {
		ue.Msg = prefix + ue.Msg
	}
	return nil, err
}

// cutOf is the Cut of s's distribution, 0 without s.
func cutOf(s *oddsSide) float64 {
	if s == nil {
		return 0
	}
	return s.dist.Cut
}

func ptr[T any](v T) *T { return &v }

// clampInt returns v as an int; a target beyond the range of an int is as
// good as the largest or smallest one.
func clampInt(v int64) int {
	return int(max(math.MinInt, min(math.MaxInt, v)))
}

// round12 rounds p to 12 significant digits, about what the calculation
// holds: 27/216 shows as 0.125, not 0.12499999999999999.
func round12(p float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(p, 'g', 12, 64), 64)
	if err != nil {
		return p
	}
	return r
}

// mostLikely lists the n most likely values of d, one a line.
func mostLikely(d *dice.Dist, n int) string {
	var b strings.Builder
	for i, v := range d.MostLikely(n) {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "**%d**: %s", v, smallPercent(d.P(v)))
	}
	return b.String()
}

// smallPercent is kit.Percent, but a chance below 0.01% shows its first
// two digits: the most likely totals of 1000d1000 are 0.0044% each, not
// "<0.01%" five times over.
func smallPercent(p float64) string {
	if p <= 0 || p >= 0.0001 {
		return kit.Percent(p)
	}
	// Two significant digits, read back so that 'f' writes them without
	// an exponent. (FormatFloat's text always parses.)
	r, _ := strconv.ParseFloat(strconv.FormatFloat(p*100, 'g', 2, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64) + "%"
}

// The chart (kit.ChartWidth by kit.ChartHeight) has at most maxBars
// bars, leaving out tails less likely than chartTail on either side.
const (
	maxBars   = 120
	chartTail = 0.0005
)

var (
	barColor    = color.NRGBA{R: 0x58, G: 0x65, B: 0xf2, A: 0xff} // Discord's blurple
	targetColor = color.NRGBA{R: 0x3b, G: 0xa5, B: 0x5d, A: 0xff} // and its green
	versusColor = color.NRGBA{R: 0xed, G: 0x42, B: 0x45, A: 0xff} // and its red
	lineColor   = color.NRGBA{R: 0x23, G: 0x27, B: 0x2a, A: 0xff}
)

// single adds a's bars to p, the values from target up in another
// colour, and returns the height of the highest bar.
func (c chart) single(p *plot.Plot, a *oddsSide, target *int) float64 {
	below, above := c.bins(a.dist, target, 0, 1)
	if len(below) > 0 {
		p.Add(histogram(below, barColor))
	}
	if len(above) > 0 {
		h := histogram(above, targetColor)
		p.Add(h)
		p.Legend.Add(fmt.Sprintf("%d or more: %s", *target, kit.Percent(a.dist.AtLeast(*target))), h)
	}
	return max(maxBin(below), maxBin(above))
}

// versus adds a's and b's bars side by side to p, and the target as a
// dashed line, and returns the height of the highest bar.
func (c chart) versus(p *plot.Plot, a, b *oddsSide, target *int) (float64, error) {
	var top float64
	for i, s := range []struct {
		side  *oddsSide
		color color.Color
	}{{a, barColor}, {b, versusColor}} {
		bars, _ := c.bins(s.side.dist, nil, 0.05+0.45*float64(i), 0.45)
		h := histogram(bars, s.color)
		p.Add(h)
		p.Legend.Add(s.side.expr.String(), h)
		top = max(top, maxBin(bars))
	}
	if target != nil && c.lo <= *target && *target <= c.hi+1 {
		x := float64(*target) - 0.5
		line, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: top}})
		if err != nil {
			return 0, err
		}
		line.Color = lineColor
		line.Width = vg.Points(1.5)
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("%d or more", *target), line)
	}
	return top, nil
}

// oddsChart draws the distribution of a as a histogram, the values from
// target up in another colour; with b, both distributions side by side,
// and the target as a dashed line.
func oddsChart(a, b *oddsSide, target *int) ([]byte, error) {
	p := plot.New()
	p.X.Label.Text = "result"
	p.Y.Label.Text = "chance"
	p.Y.Tick.Marker = percentTicks{}
	p.X.Tick.Marker = kit.IntegerTicks{}
	p.Legend.Top = true

	lo, hi := shown(a.dist)
	if b != nil {
		blo, bhi := shown(b.dist)
		lo, hi = min(lo, blo), max(hi, bhi)
	}
	// Bars of width values each: one a value when they fit, else as
	// many as make at most maxBars, aligned on the target.
	width := max(1, (hi-lo+maxBars)/maxBars)
	c := chart{width: width, origin: lo, lo: lo, hi: hi}
	if target != nil {
		c.origin = *target
	}
	var top float64 // the height of the highest bar
	if b == nil {
		top = c.single(p, a, target)
	} else {
		var err error
		if top, err = c.versus(p, a, b, target); err != nil {
			return nil, err
		}
	}
	p.Y.Max = top * 1.25 // room for the legend
	if width > 1 {
		p.Y.Label.Text = fmt.Sprintf("chance (a value, bars of %d)", width)
	}
	return kit.PNG(p)
}

// shown returns the range of d's values worth drawing: all but the tails
// less likely than chartTail.
func shown(d *dice.Dist) (lo, hi int) {
	lo, hi = d.Min(), d.Max()
	below, first := 0.0, true // below is the chance of the values before v
	for v, p := range d.All() {
		if below <= chartTail || first {
			lo, first = v, false
		}
		if below < 1-chartTail {
			hi = v
		}
		below += p
	}
	return lo, hi
}

// chart places the bars of a histogram: each width values wide, one of
// them starting at origin, for the values lo to hi.
type chart struct {
	width, origin, lo, hi int
}

// bins returns the bars of d, each as high as the mean chance of its
// values; with a target, the bars from it up come apart in above. A bar
// covers the fraction frac of its width, from shift on.
func (c chart) bins(d *dice.Dist, target *int, shift, frac float64) (below, above []plotter.HistogramBin) {
	w := c.width
	var cur plotter.HistogramBin
	curStart, open := 0, false
	flush := func() {
		if !open {
			return
		}
		cur.Weight /= float64(w)
		if target != nil && curStart >= *target {
			above = append(above, cur)
		} else {
			below = append(below, cur)
		}
		open = false
	}
	for v, p := range d.All() {
		if v < c.lo || v > c.hi {
			continue
		}
		s := v - ((v-c.origin)%w+w)%w // the first value of v's bar
		if !open || s != curStart {
			flush()
			curStart, open = s, true
			x := float64(s) - 0.5 + shift*float64(w)
			cur = plotter.HistogramBin{Min: x, Max: x + frac*float64(w)}
		}
		cur.Weight += p
	}
	flush()
	return below, above
}

func maxBin(bins []plotter.HistogramBin) float64 {
	m := 0.0
	for _, b := range bins {
		m = max(m, b.Weight)
	}
	return m
}

func histogram(bins []plotter.HistogramBin, c color.Color) *plotter.Histogram {
	h := &plotter.Histogram{Bins: bins, FillColor: c}
	if len(bins) > 0 {
		h.Width = bins[0].Max - bins[0].Min
	}
	if len(bins) <= 60 {
		// An outline between bars, when they are wide enough to see it.
		h.LineStyle = draw.LineStyle{Color: color.White, Width: vg.Points(0.5)}
	}
	return h
}

// percentTicks labels a probability axis in percent.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(math.Round(ticks[i].Value*1e6)/1e4, 'f', -1, 64) + "%"
		}
	}
	return ticks
}
