package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/rules/dice"
)

// signedRequest is a /roll interaction signed before the clock starts, so
// the load generator measures the server, not its own signing.
type signedRequest struct {
	body, sig []byte
	ts        string
}

func signedRolls(b *testing.B, s signer, n int, now time.Time) []signedRequest {
	fake := fakediscord.New(fakediscord.Options{})
	defer fake.Close()
	exprs := []string{"1d20+5", "4d6kh3", "2d20kh1+7", "8d6", "3d6!"}
	out := make([]signedRequest, n)
	ts := strconv.FormatInt(now.Unix(), 10)
	for i := range out {
		in := fake.SlashCommand("roll", fakediscord.StringOpt("expression", exprs[i%len(exprs)]))
		in.ID = strconv.FormatUint(loadIDs.Add(1), 10) // unique across runs: the endpoint refuses replays
		in.ChannelID = strconv.Itoa(1000 + i%50)
		body := interactionJSON(b, in)
		sig := ed25519.Sign(s.priv, append([]byte(ts), body...))
		out[i] = signedRequest{body: body, sig: []byte(hex.EncodeToString(sig)), ts: ts}
	}
	return out
}

// loadIDs numbers the load's interactions across every run of the
// benchmark in this process.
var loadIDs atomic.Uint64

// bareServer only verifies the signature and answers a fixed body: the
// ceiling any endpoint doing real work can approach.
func bareServer(pub ed25519.PublicKey) http.Handler {
	fixedBody := []byte(`{"type":4,"data":{"content":"ok","allowed_mentions":{"parse":[]}}}`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxInteractionBody))
		if err != nil {
			http.Error(w, "read", http.StatusBadRequest)
			return
		}
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		ts := r.Header.Get("X-Signature-Timestamp")
		if err != nil || !ed25519.Verify(pub, append([]byte(ts), body...), sig) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(fixedBody)
	})
}

// loadEndpoint is the real endpoint over a SQLite store, as `tablehand
// http` serves it (the store is its replay memory too), with random dice.
func loadEndpoint(b *testing.B, s signer) http.Handler {
	store := testStore(b)
	var seed atomic.Uint64
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(seed.Add(1), 7))) }
	endpoint, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: commands.New(deps), Replays: store})
	if err != nil {
		b.Fatal(err)
	}
	return endpoint
}

// loadFigures are one load run's: requests a second, and the median and
// 99th percentile latency.
type loadFigures struct {
	rps      float64
	p50, p99 time.Duration
}

// loadClients is how many requests are in flight at once: 16 clients a
// core, as a busy server sees (32 on two cores).
const loadClients = 16

// runLoad sends reqs to h, served on loopback, from loadClients clients
// a core, and measures them.
func runLoad(b *testing.B, h http.Handler, reqs []signedRequest) loadFigures {
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: 64,
		DialContext:         (&net.Dialer{}).DialContext,
	}}
	defer client.CloseIdleConnections()
	clients := loadClients * runtime.GOMAXPROCS(0)
	lat := make([]time.Duration, len(reqs))
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(reqs) {
					return
				}
				rq := reqs[i]
				req, err := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(rq.body))
				if err != nil {
					b.Error(err)
					return
				}
				req.Header.Set("X-Signature-Ed25519", string(rq.sig))
				req.Header.Set("X-Signature-Timestamp", rq.ts)
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = time.Since(t0)
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	return loadFigures{rps: float64(len(reqs)) / elapsed.Seconds(), p50: lat[len(lat)/2], p99: lat[len(lat)*99/100]}
}

func (f loadFigures) report(b *testing.B, prefix string) {
	b.ReportMetric(f.rps, prefix+"req/s")
	b.ReportMetric(float64(f.p50.Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(f.p99.Microseconds())/1000, prefix+"p99-ms")
}

// BenchmarkHTTPLoad fires pre-signed /roll interactions from concurrent
// clients at the real endpoint (signature check, router, SQLite roll log)
// and at a bare server that only verifies and answers a fixed body, on
// loopback in the same run. It reports requests a second and p50/p99
// latency of each; compare them with benchstat or by eye:
//
//	go test -run '^$' -bench HTTPLoad -benchtime 5000x ./bot/
func BenchmarkHTTPLoad(b *testing.B) {
	s := newSigner(b)
	for _, bc := range []struct {
		name string
		h    func(*testing.B) http.Handler
	}{{"bare", func(*testing.B) http.Handler { return bareServer(s.pub) }}, {"endpoint", func(b *testing.B) http.Handler { return loadEndpoint(b, s) }}} {
		b.Run(bc.name, func(b *testing.B) {
			// One signed request per operation: the endpoint refuses an
			// interaction ID it has answered before, as a replay.
			reqs := signedRolls(b, s, b.N, time.Now())
			h := bc.h(b) // its store is the sub-benchmark's, closed with it
			b.ResetTimer()
			f := runLoad(b, h, reqs)
			b.StopTimer()
			f.report(b, "")
		})
	}
}

// BenchmarkHTTPRollRatio is the endpoint against the bare server in one
// run: b.N signed /roll interactions to each, three times in turn (bare,
// endpoint, bare, ...), at 32 in flight on two cores (loadClients a
// core). It reports each one's median requests a second and p99, and
// the ratios the performance target is set in: the endpoint's
// throughput over the bare server's (ratio, target at least 0.80) and
// its p99 over the bare server's (p99-ratio, target at most 2). Every
// roll is in the SQLite roll log, committed, before it is answered.
//
//	go test -run '^$' -bench HTTPRollRatio -benchtime 20000x ./bot/
func BenchmarkHTTPRollRatio(b *testing.B) {
	s := newSigner(b)
	bare, endpoint := bareServer(s.pub), loadEndpoint(b, s)
	var bareRuns, endRuns []loadFigures
	b.ResetTimer()
	for range 3 {
		b.StopTimer()
		reqs := signedRolls(b, s, b.N, time.Now())
		b.StartTimer()
		bareRuns = append(bareRuns, runLoad(b, bare, reqs))
		b.StopTimer()
		reqs = signedRolls(b, s, b.N, time.Now())
		b.StartTimer()
		endRuns = append(endRuns, runLoad(b, endpoint, reqs))
	}
	b.StopTimer()
	bf, ef := medianFigures(bareRuns), medianFigures(endRuns)
	bf.report(b, "bare-")
	ef.report(b, "endpoint-")
	b.ReportMetric(ef.rps/bf.rps, "ratio")
	b.ReportMetric(float64(ef.p99)/float64(bf.p99), "p99-ratio")
}

// medianFigures is the median of runs, figure by figure.
func medianFigures(runs []loadFigures) loadFigures {
	med := func(f func(loadFigures) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return loadFigures{
		rps: med(func(f loadFigures) float64 { return f.rps }),
		p50: time.Duration(med(func(f loadFigures) float64 { return float64(f.p50) })),
		p99: time.Duration(med(func(f loadFigures) float64 { return float64(f.p99) })),
	}
}
