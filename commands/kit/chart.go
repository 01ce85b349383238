package kit

import (
	"bytes"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// The charts Tablehand attaches (/odds, a faction round's stats): 600 by
// 300 pixels at the 96 dots per inch the PNG canvas draws at.
const (
	ChartWidth  = 600 * vg.Inch / 96
	ChartHeight = 300 * vg.Inch / 96
)

// PNG draws p at the charts' size.
func PNG(p *plot.Plot) ([]byte, error) {
	wt, err := p.WriterTo(ChartWidth, ChartHeight, "png")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// IntegerTicks labels an axis of whole numbers at a round step: 1, 2, 5,
// 10, 20, 50 and so on, at most about a dozen labels.
type IntegerTicks struct{}

// Ticks returns the labels between lo and hi.
func (IntegerTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for i := 0; (hi-lo)/step > 12; i++ {
		step *= [3]float64{2, 2.5, 2}[i%3] // 1, 2, 5, 10, 20, 50, ...
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ticks
}
