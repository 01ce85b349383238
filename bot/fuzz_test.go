package bot

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/tablehand/tablehand/bot/fakediscord"
	"github.com/tablehand/tablehand/commands"
)

// FuzzHTTPEndpoint throws random bodies and headers at the interactions
// endpoint, with the real router and database behind it. Without a valid
// signature the answer is always 401 (or 413 for an oversized body,
// refused before it is read whole). With one (the fuzzer's sign flag: the
// target signs the body as Discord would, so that what follows the check
// is fuzzed too) it is 200 with an interaction response, or 400. It never
// panics and never answers 5xx.
//
// Plain `go test` runs the seeds below and testdata/fuzz/FuzzHTTPEndpoint;
// fuzz with
//
//	go test -run '^$' -fuzz FuzzHTTPEndpoint -fuzztime 60s ./bot/
func FuzzHTTPEndpoint(f *testing.F) {
	s := newSigner(f)
	fake := fakediscord.New(fakediscord.Options{}) // fixtures only
	seeds := [][]byte{
		[]byte(`{"id":"1","application_id":"2","type":1,"token":"tok","version":1}`),
		interactionJSON(f, fake.SlashCommand("roll", fakediscord.StringOpt("expression", "2d6+3"), fakediscord.StringOpt("dice", "4,5"))),
		interactionJSON(f, fake.SlashCommand("character", fakediscord.Subcommand("set", fakediscord.StringOpt("name", "<@&1> @everyone"), fakediscord.StringOpt("system", "arc")))),
		interactionJSON(f, fake.Autocomplete("roll", fakediscord.StringOpt("expression", "1d").Focus())),
		interactionJSON(f, fake.Component("reroll:ABC123")),
		[]byte(`{"type":2}`),
		[]byte(`{"type":2,"data":{"name":"roll","options":[{"name":"expression","type":3,"value":5}]}}`),
		[]byte(`null`),
	}
	fake.Close()
	ts := strconv.FormatInt(testNow.Unix(), 10)
	for _, b := range seeds {
		f.Add(b, "", ts, true)
		f.Add(b, hex.EncodeToString(make([]byte, ed25519.SignatureSize)), ts, false)
		// Signed, but 6 minutes old: a replay.
		old := strconv.FormatInt(testNow.Unix()-360, 10)
		f.Add(b, hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(old), b...))), old, false)
	}

	store := testStore(f)
	deps := seededDeps(store)
	router := commands.New(deps)
	e, err := NewEndpoint(HTTPOptions{PublicKey: s.pub, Handler: Logged(router, nil, nil), Log: slog.New(slog.DiscardHandler),
		Now: func() time.Time { return testNow }})
	if err != nil {
		f.Fatal(err)
	}

	f.Fuzz(func(t *testing.T, body []byte, sig, timestamp string, sign bool) {
		validSig := false
		if sign {
			timestamp = ts
			sig = hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(timestamp), body...)))
		}
		// A fuzzed signature may be a valid one, copied from a seed.
		if raw, err := hex.DecodeString(sig); err == nil && len(raw) == ed25519.SignatureSize {
			if unix, err := strconv.ParseInt(timestamp, 10, 64); err == nil && abs(testNow.Unix()-unix) <= int64(MaxClockSkew.Seconds()) {
				validSig = ed25519.Verify(s.pub, append([]byte(timestamp), body...), raw)
			}
		}
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("X-Signature-Ed25519", sig)
		req.Header.Set("X-Signature-Timestamp", timestamp)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		e.Wait()

		status := rec.Code
		switch {
		case status >= 500:
			t.Fatalf("status %d for %q: %s", status, body, rec.Body)
		case len(body) > MaxInteractionBody:
			if status != http.StatusRequestEntityTooLarge {
				t.Fatalf("oversized body: status %d", status)
			}
		case !validSig:
			if status != http.StatusUnauthorized {
				t.Fatalf("no valid signature (sig %q, timestamp %q): status %d", sig, timestamp, status)
			}
		case status == http.StatusConflict:
			// an interaction ID seen before (the corpus reuses IDs): refused as a replay
		case status == http.StatusBadRequest:
			// Signed, but not an interaction discordgo can decode.
		case status == http.StatusOK:
			checkEndpointAnswer(t, body, rec)
		default:
			t.Fatalf("signed body %q: status %d", body, status)
		}
	})
}

// checkEndpointAnswer checks a 200: an interaction response that Discord
// takes, mentions set on any message.
func checkEndpointAnswer(t *testing.T, body []byte, rec *httptest.ResponseRecorder) {
	t.Helper()
	mt, _, err := mime.ParseMediaType(rec.Header().Get("Content-Type"))
	if err != nil {
		t.Fatalf("Content-Type %q: %v", rec.Header().Get("Content-Type"), err)
	}
	if mt == "multipart/form-data" {
		return // an attachment; TestHTTPEndpointAttachments checks the form
	}
	if mt != "application/json" {
		t.Fatalf("Content-Type %q", mt)
	}
	var resp struct {
		Type int `json:"type"`
		Data *struct {
			AllowedMentions *struct {
				Parse []string `json:"parse"`
			} `json:"allowed_mentions"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatalf("answer %s: %v", rec.Body, err)
	}
	switch resp.Type {
	case 1, 5, 8:
	case 4, 7:
		if resp.Data == nil || resp.Data.AllowedMentions == nil || resp.Data.AllowedMentions.Parse == nil {
			t.Fatalf("a message without allowed_mentions for %q: %s", body, rec.Body)
		}
	default:
		t.Fatalf("answer type %d for %q", resp.Type, body)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
