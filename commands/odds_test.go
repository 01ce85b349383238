package commands

import (
	"bytes"
	"context"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/commands/kit/kittest"
	"github.com/tablehand/tablehand/db"
	"github.com/tablehand/tablehand/rules/dice"
)

// oddsLog is a roll log that remembers one recent expression, for the
// autocomplete.
type oddsLog struct{}

func (oddsLog) LogRoll(ctx context.Context, r db.Roll) (db.SavedRoll, error) {
	return db.SavedRoll{ID: 1}, nil
}

func (oddsLog) RecentRolls(ctx context.Context, channelID, userID string, viewer db.Viewer, limit int) ([]db.Roll, error) {
	return nil, nil
}

func (oddsLog) RollByCode(ctx context.Context, channelID, code string) (db.Roll, bool, error) {
	return db.Roll{}, false, nil
}

func (oddsLog) RecentExprs(ctx context.Context, userID string, limit int) ([]string, error) {
	return []string{"4d6kh3"}, nil
}

// oddsRun answers one console line and decodes the result as the console
// prints it.
func oddsRun(t testing.TB, line string) (kit.Response, map[string]any, error) {
	t.Helper()
	deps := kit.NewDeps(nil, nil)
	deps.Rolls, deps.Codes = oddsLog{}, kit.NewCodes(1, true)
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(1, 2))) }
	r := New(deps)
	return kittest.Answer(t, r, line)
}

func TestOddsResult(t *testing.T) {
	tests := []struct {
		line string
		want map[string]any // keys of the result and their values; nil: must be absent
		dist map[string]float64
	}{
		{"/odds 3d6", map[string]any{"mean": 10.5, "stddev": 2.95803989155, "exact": true,
			"p_at_least": nil, "p_win": nil, "p_tie": nil, "p_lose": nil},
			map[string]float64{"3": 0.00462962962963, "10": 0.125, "11": 0.125, "18": 0.00462962962963}},
		// 20 of the 216 outcomes of 3d6 make 15 or more.
		{"/odds 3d6 target:15", map[string]any{"p_at_least": 0.0925925925926, "p_win": nil}, nil},
		{"/odds 3d6 target:3", map[string]any{"p_at_least": 1.0}, nil},
		{"/odds 3d6 target:19", map[string]any{"p_at_least": 0.0}, nil},
		// 1d20+5 against 1d20+3: 229, 18 and 153 of 400.
		{"/odds expression:1d20+5 versus:1d20+3", map[string]any{"mean": 15.5, "p_win": 0.5725, "p_tie": 0.045, "p_lose": 0.3825, "p_at_least": nil, "exact": true},
			map[string]float64{"6": 0.05, "25": 0.05}},
		{"/odds 2d20kh1 target:20 versus:1d20", map[string]any{"mean": 13.825, "p_at_least": 0.0975}, map[string]float64{"1": 0.0025, "20": 0.0975}},
		{"/odds 10d10>=8", map[string]any{"mean": 3.0}, map[string]float64{"0": 0.0282475249, "10": 0.0000059049}},
		{"/odds 1d4 versus:4", map[string]any{"p_win": 0.0, "p_tie": 0.25, "p_lose": 0.75}, nil},
		// Out of exact reach: estimated from rolls.
		{"/odds 8d6!r1kh3>=5", map[string]any{"exact": false}, nil},
		{"/odds 3d6 versus:8d6!r1kh3>=5", map[string]any{"exact": false, "mean": 10.5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			resp, result, err := oddsRun(t, tt.line)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			for k, want := range tt.want {
				got, ok := result[k]
				if want == nil {
					if ok {
						t.Errorf("%s = %v, want it absent", k, got)
					}
					continue
				}
				if got != want {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
			dist, ok := result["distribution"].(map[string]any)
			if !ok {
				t.Fatalf("no distribution in %v", result)
			}
			sum := 0.0
			for _, p := range dist {
				sum += p.(float64)
			}
			if sum < 1-1e-9 || sum > 1+1e-9 {
				t.Errorf("distribution sums to %g", sum)
			}
			for v, want := range tt.dist {
				if got := dist[v]; got != want {
					t.Errorf("distribution[%s] = %v, want %v", v, got, want)
				}
			}
			checkOddsResponse(t, resp)
		})
	}
}

// checkOddsResponse checks the reply: an embed showing the attached PNG.
func checkOddsResponse(t *testing.T, resp kit.Response) {
	t.Helper()
	if len(resp.Embeds) != 1 || resp.Embeds[0].Image != "attachment://odds.png" {
		t.Fatalf("embeds %+v, want one showing attachment://odds.png", resp.Embeds)
	}
	if len(resp.Files) != 1 || resp.Files[0].Name != "odds.png" || resp.Files[0].ContentType != "image/png" {
		t.Fatalf("files %+v, want odds.png", resp.Files)
	}
	img, err := png.Decode(bytes.NewReader(resp.Files[0].Data))
	if err != nil {
		t.Fatalf("odds.png: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() != 300 {
		t.Errorf("odds.png is %dx%d, want 600x300", b.Dx(), b.Dy())
	}
}

func TestOddsEmbed(t *testing.T) {
	resp, _, err := oddsRun(t, "/odds expression:1d20+5 target:15 versus:1d20+3 private:true")
	if err != nil {
		t.Fatal(err)
	}
	e := resp.Embeds[0]
	var b strings.Builder
	b.WriteString(e.Title + "\n")
	for _, f := range e.Fields {
		b.WriteString(f.Name + ": " + f.Value + "\n")
	}
	b.WriteString(e.Footer)
	want := `Odds of 1d20 + 5 versus 1d20 + 3
Mean: 15.5
Standard deviation: 5.77
Range: 6 to 25
Most likely: **6**: 5%
**7**: 5%
**8**: 5%
**9**: 5%
**10**: 5%
At least 15: 55%
Win: 57.25%
Tie: 4.5%
Lose: 38.25%
Versus 1d20 + 3: mean 13.5, standard deviation 5.77
Exact`
	if got := b.String(); got != want {
		t.Errorf("embed:\n%s\nwant:\n%s", got, want)
	}
	if !resp.Ephemeral {
		t.Errorf("private:true answered in public")
	}
	// A label's markdown shows as typed.
	resp, _, err = oddsRun(t, "/odds 1d4 [1d6 *fire*] + 1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Embeds[0].Title, `Odds of 1d4 [1d6 \*fire\*] + 1`; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	resp, _, err = oddsRun(t, "/odds 8d6!r1kh3>=5")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Embeds[0].Footer, "8d6r1!kh3>=5 estimated from 100,000 rolls: beyond what is worked out exactly"; got != want {
		t.Errorf("footer %q, want %q", got, want)
	}
}

func TestOddsMistakes(t *testing.T) {
	tests := []struct {
		line, msg, detail string
	}{
		{"/odds 1d20++5", "unexpected '+' at column 6: did you mean `1d20+5`?", "1d20++5\n     ^"},
		{"/odds 3d6 versus:2d", "versus: unexpected end of expression, expected the sides of the die, as in 1d6 at column 3", "2d\n  ^"},
		{"/odds 1d6/(1d2-1)", "division by zero: the divisor can be 0 at column 4", "1d6/(1d2-1)\n   ^"},
		{"/odds 1d6 versus:1d6/0", "versus: division by zero: the divisor can be 0 at column 4", "1d6/0\n   ^"},
	}
	for _, tt := range tests {
		resp, _, err := oddsRun(t, tt.line)
		ue, ok := kit.AsUserError(err)
		if !ok {
			t.Errorf("%s: error %v, want a user error", tt.line, err)
			continue
		}
		if ue.Msg != tt.msg || ue.Detail != tt.detail {
			t.Errorf("%s: %q\n%s\nwant %q\n%s", tt.line, ue.Msg, ue.Detail, tt.msg, tt.detail)
		}
		if !resp.Ephemeral || len(resp.Files) != 0 {
			t.Errorf("%s: a mistake is answered privately, without a chart", tt.line)
		}
	}
}

func TestOddsAutocomplete(t *testing.T) {
	resp, _, err := oddsRun(t, "complete /odds expression:4d6")
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Choices) != 2 || resp.Choices[0].Value != "4d6" || resp.Choices[1].Value != "4d6kh3" {
		t.Errorf("choices %+v, want 4d6 and the recent 4d6kh3", resp.Choices)
	}
}

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want string
	}{
		{0, "0%"}, {1, "100%"}, {0.125, "12.5%"}, {0.0925925925926, "9.26%"}, {0.5725, "57.25%"},
		{0.00005, "<0.01%"}, {0.99995, ">99.99%"}, {0.0001, "0.01%"}, {1.0000000000000002, "100%"},
	} {
		if got := kit.Percent(tt.p); got != tt.want {
			t.Errorf("percent(%g) = %q, want %q", tt.p, got, tt.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := kit.Thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkOddsCommand measures a whole /odds answer: the distribution
// and the chart, PNG encoding included.
func BenchmarkOddsCommand(b *testing.B) {
	for _, line := range []string{"/odds 3d6 target:15", "/odds expression:1d20+5 versus:1d20+3", "/odds 100d100"} {
		b.Run(line, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := oddsRun(b, line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
