package faction

import (
	"fmt"
	"image/color"

	"github.com/tablehand/tablehand/commands/kit"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The chart of /faction round and the schedule's firings: each faction's
// Health Stats over the rounds.

// chartFile is the name of the chart's attachment.
const chartFile = "factions.png"

// maxChartLines is how many factions the attached chart draws, each in
// its own colour and style (chartStyle); its title says when there are
// more, which the campaign's page draws all.
const maxChartLines = 12

// pngGlyphs are the markers of the attached chart, in chartMarkers' order.
var pngGlyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}}

// statsChart draws each faction's Health Stats (INF + TEC + SOL + POP)
// after each round of hist.
func statsChart(hist []Round) ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Health Stats (INF + TEC + SOL + POP)"
	p.X.Label.Text = "round"
	p.Y.Label.Text = "points"
	p.X.Tick.Marker = kit.IntegerTicks{}
	p.Legend.Top = true
	p.Legend.Left = true
	names, series := statsSeries(hist)
	if len(names) > maxChartLines {
		p.Title.Text += fmt.Sprintf(": %d of %d factions (the campaign's page draws all)", maxChartLines, len(names))
		names = names[:maxChartLines]
	}
	top := 1.0
	for i, n := range names {
		line, points, err := plotter.NewLinePoints(series[n])
		if err != nil {
			return nil, err
		}
		st := chartStyle(i)
		c := st.rgb
		col := color.NRGBA{R: uint8(c >> 16), G: uint8(c >> 8), B: uint8(c), A: 0xff}
		line.Color, points.Color = col, col
		line.Width = vg.Points(2)
		for _, d := range st.dash {
			line.Dashes = append(line.Dashes, vg.Points(float64(d)))
		}
		points.Shape = pngGlyphs[st.marker]
		p.Add(line, points)
		p.Legend.Add(n, line, points)
		for _, xy := range series[n] {
			top = max(top, xy.Y)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*1.3
	if len(hist) > 0 {
		p.X.Min, p.X.Max = float64(hist[0].Round)-0.5, float64(hist[len(hist)-1].Round)+0.5
	}
	return kit.PNG(p)
}

// statsSeries is each faction's Health Stats after each round of hist, by
// name; names lists every faction, in the order they first appear.
func statsSeries(hist []Round) (names []string, series map[string]plotter.XYs) {
	series = map[string]plotter.XYs{}
	for _, r := range hist {
		for _, s := range r.Sheets {
			if _, ok := series[s.Faction]; !ok {
				names = append(names, s.Faction)
			}
			total := s.Stats.INF + s.Stats.TEC + s.Stats.SOL + s.Stats.POP
			series[s.Faction] = append(series[s.Faction], plotter.XY{X: float64(r.Round), Y: float64(total)})
		}
	}
	return names, series
}
