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

// StatsChart is the chart, ready to draw: nil when no round was played.
type StatsChart struct {
	Title          string
	Width, Height  int
	Left, Top      int
	Right, Bottom  int // the plot's right and bottom edges
	Lines          []ChartLine
	XTicks, YTicks []ChartTick
	// Rounds and Rows are the table: a row a faction, a column a round.
	Rounds []int
	Rows   []ChartRow
}

// ChartLine is one faction's line.
type ChartLine struct {
	Name   string
	Color  string // #rrggbb
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
	for i, n := range names {
		c := factionColors[i%len(factionColors)]
		line := ChartLine{Name: n, Color: fmt.Sprintf("#%06x", c)}
		var pts []string
		row := ChartRow{Name: n, Values: make([]string, len(hist))}
		for _, xy := range series[n] {
			px, py := x(xy.X), y(xy.Y)
			pts = append(pts, fmt.Sprintf("%d,%d", px, py))
			line.Dots = append(line.Dots, ChartDot{X: px, Y: py, Label: fmt.Sprintf("%s, round %d: %d", n, int(xy.X), int(xy.Y))})
			row.Values[col[int(xy.X)]] = strconv.Itoa(int(xy.Y))
		}
		line.Points = strings.Join(pts, " ")
		ch.Lines = append(ch.Lines, line)
		ch.Rows = append(ch.Rows, row)
	}
	return ch
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
