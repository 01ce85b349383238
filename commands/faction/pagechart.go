package faction

import (
	"fmt"
	"strconv"
	"strings"
)

// The page's chart: each faction's Health Stats after each round, the
// numbers of the chart /faction round posts (statsSeries), drawn as SVG on
// the server, with its numbers as a table for whom the picture says
// nothing.

// The chart's drawing area, in SVG user units.
const (
	chartW, chartH        = 640, 300
	chartLeft, chartRight = 44, 12
	chartTop, chartBottom = 12, 32
	chartPlotW            = chartW - chartLeft - chartRight
	chartPlotH            = chartH - chartTop - chartBottom
	chartTitle            = "Health Stats (INF + TEC + SOL + POP) after each round"
	chartYTicks           = 4
)

// Every faction is drawn, and told apart from the others of its chart by
// its line's colour and style together (chartStyle): the colours of the
// reports, and a dash and a marker. A chart of more than chartPanelMax
// factions becomes small multiples: panels of at most that many, one
// above the other, on the same axes.
const chartPanelMax = 12

// The styles a line takes after the colours: its dash (lengths of dash
// and gap, none for solid) and its marker. Line i has colour i mod 8 and
// style (i div 8) mod 4: the first 32 lines differ all, and so do any 12
// lines in a row, which is what a panel holds.
var (
	chartDashes  = [][]int{nil, {8, 4}, {2, 4}, {10, 4, 2, 4}}
	chartMarkers = []Marker{MarkerCircle, MarkerSquare, MarkerTriangle, MarkerDiamond}
)

// Marker is the shape of a line's points.
type Marker int

// The markers.
const (
	MarkerCircle Marker = iota
	MarkerSquare
	MarkerTriangle
	MarkerDiamond
)

// lineStyle is how a line is drawn: its colour (0xrrggbb), dash and
// marker.
type lineStyle struct {
	rgb    int
	dash   []int
	marker Marker
}

// chartStyle is the style of line i.
func chartStyle(i int) lineStyle {
	s := i / len(factionColors) % len(chartDashes)
	return lineStyle{rgb: factionColors[i%len(factionColors)], dash: chartDashes[s], marker: chartMarkers[s]}
}

// color is the style's colour as #rrggbb.
func (s lineStyle) color() string { return fmt.Sprintf("#%06x", s.rgb) }

// dashArray is the style's dash as SVG's stroke-dasharray ("" solid).
func (s lineStyle) dashArray() string {
	parts := make([]string, len(s.dash))
	for i, n := range s.dash {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, " ")
}

// StatsChart is the chart, ready to draw: nil when no round was played.
type StatsChart struct {
	Title         string
	Width, Height int
	Left, Top     int
	Right, Bottom int // the plot's right and bottom edges
	// Panels are the charts drawn, each of some of the lines, on the
	// same axes: one, or small multiples past chartPanelMax factions.
	Panels         []ChartPanel
	XTicks, YTicks []ChartTick
	// Rounds and Rows are the table: a row a faction, a column a round.
	Rounds []int
	Rows   []ChartRow
}

// ChartPanel is one chart of the lines of some factions.
type ChartPanel struct {
	ID    string // its title's element ID
	Title string
	Lines []ChartLine
}

// ChartLine is one faction's line.
type ChartLine struct {
	Name   string
	Color  string // #rrggbb
	Dash   string // stroke-dasharray; "" solid
	Marker Marker
	Points string // x,y x,y ...
	Dots   []ChartDot
}

// ChartDot is one point of a line, with what it says.
type ChartDot struct {
	X, Y  int
	Label string
}

// ChartTick is a tick on an axis: where, and its label.
type ChartTick struct {
	At    int
	Label string
}

// ChartRow is one faction's values, a cell a round ("" where it had none).
type ChartRow struct {
	Name   string
	Values []string
}

// statsChartSVG is the chart of hist (oldest round first).
func statsChartSVG(hist []Round) *StatsChart {
	if len(hist) == 0 {
		return nil
	}
	names, series := statsSeries(hist)
	ch := &StatsChart{Title: chartTitle, Width: chartW, Height: chartH, Left: chartLeft, Top: chartTop,
		Right: chartLeft + chartPlotW, Bottom: chartTop + chartPlotH}
	first, last := hist[0].Round, hist[len(hist)-1].Round
	top := 1.0
	for _, n := range names {
		for _, xy := range series[n] {
			top = max(top, xy.Y)
		}
	}
	top = float64(niceCeil(int(top)))
	x := func(round float64) int {
		if last == first {
			return chartLeft + chartPlotW/2
		}
		return chartLeft + int((round-float64(first))/float64(last-first)*chartPlotW)
	}
	y := func(v float64) int { return chartTop + chartPlotH - int(v/top*chartPlotH) }
	col := map[int]int{} // round -> column of the table
	for i, r := range hist {
		ch.Rounds = append(ch.Rounds, r.Round)
		col[r.Round] = i
	}
	step := max(1, len(hist)/10)
	for i := 0; i < len(hist); i += step {
		ch.XTicks = append(ch.XTicks, ChartTick{At: x(float64(hist[i].Round)), Label: strconv.Itoa(hist[i].Round)})
	}
	for i := 0; i <= chartYTicks; i++ {
		v := top * float64(i) / chartYTicks
		ch.YTicks = append(ch.YTicks, ChartTick{At: y(v), Label: strconv.Itoa(int(v))})
	}
	lines := make([]ChartLine, 0, len(names))
	ch.Rows = make([]ChartRow, 0, len(names))
	for i, n := range names {
		st := chartStyle(i)
		line := ChartLine{Name: n, Color: st.color(), Dash: st.dashArray(), Marker: st.marker}
		var pts strings.Builder
		row := ChartRow{Name: n, Values: make([]string, len(hist))}
		for j, xy := range series[n] {
			px, py := x(xy.X), y(xy.Y)
			if j > 0 {
				pts.WriteByte(' ')
			}
			pts.WriteString(strconv.Itoa(px))
			pts.WriteByte(',')
			pts.WriteString(strconv.Itoa(py))
			v := strconv.Itoa(int(xy.Y))
			line.Dots = append(line.Dots, ChartDot{X: px, Y: py, Label: n + ", round " + strconv.Itoa(int(xy.X)) + ": " + v})
			row.Values[col[int(xy.X)]] = v
		}
		line.Points = pts.String()
		lines = append(lines, line)
		ch.Rows = append(ch.Rows, row)
	}
	ch.Panels = chartPanels(lines)
	return ch
}

// chartPanels shares lines among as few panels as hold them, at most
// chartPanelMax a panel, in even parts, in their order.
func chartPanels(lines []ChartLine) []ChartPanel {
	k := max(1, (len(lines)+chartPanelMax-1)/chartPanelMax)
	panels := make([]ChartPanel, 0, k)
	for p := range k {
		from, to := p*len(lines)/k, (p+1)*len(lines)/k
		panel := ChartPanel{ID: "chart-title-" + strconv.Itoa(p), Title: chartTitle, Lines: lines[from:to]}
		if k > 1 {
			panel.Title = fmt.Sprintf("%s: factions %d to %d of %d", chartTitle, from+1, to, len(lines))
		}
		panels = append(panels, panel)
	}
	return panels
}

// niceCeil is the smallest multiple of 4, 8, 20, 40, ... at least n, so
// that the axis's four steps are whole numbers.
func niceCeil(n int) int {
	for _, step := range []int{4, 8, 20, 40, 100, 200, 400, 1000} {
		if n <= step*4 || step == 1000 {
			return (n + step - 1) / step * step
		}
	}
	return n
}
