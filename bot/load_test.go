package bot

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
	"github.com/tablehand/tablehand/commands/kit"
	"github.com/tablehand/tablehand/db"
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

// BenchmarkHTTPLoad fires pre-signed /roll interactions from concurrent
// clients at the real endpoint (signature check, router, SQLite roll log)
// and at a bare server that only verifies and answers a fixed body, on
// loopback in the same run. It reports requests a second and p50/p99
// latency of each; compare them with benchstat or by eye:
//
//	go test -run '^$' -bench HTTPLoad -benchtime 5000x ./bot/
func BenchmarkHTTPLoad(b *testing.B) {
	s := newSigner(b)
	now := time.Now()

	store, err := db.Open(context.Background(), filepath.Join(b.TempDir(), "load.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	var seed atomic.Uint64
	deps := kit.NewDeps(store, commands.DefaultRules())
	deps.Roller = func() dice.Roller { return dice.NewRandom(rand.New(rand.NewPCG(seed.Add(1), 7))) }
	router := commands.New(deps)
	endpoint, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: router})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"bare", bareServer(s.pub)}, {"endpoint", endpoint}} {
		b.Run(bc.name, func(b *testing.B) {
			// One signed request per operation: the endpoint refuses an
			// interaction ID it has answered before, as a replay.
			reqs := signedRolls(b, s, b.N, now)
			srv := httptest.NewServer(bc.h)
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{
				MaxIdleConnsPerHost: 64,
				DialContext:         (&net.Dialer{}).DialContext,
			}}
			var mu sync.Mutex
			var lat []time.Duration
			var next atomic.Int64
			b.SetParallelism(16) // 16 clients a core, as a busy server sees
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					rq := reqs[int(next.Add(1)-1)%len(reqs)]
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
					mine = append(mine, time.Since(t0))
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(start)
			b.StopTimer()
			if len(lat) == 0 {
				return
			}
			slices.Sort(lat)
			b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
