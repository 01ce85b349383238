package bot

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// apiClient returns an HTTP client that sends every request discordgo
// makes to base instead of discord.com: for a Discord API proxy (such as
// the rate-limiting proxies large bots put in front of the REST API) and for
// running the real binary against a fake Discord. discordgo fixes its
// endpoint URLs at init, so a transport that rewrites each request's
// scheme and host (and prefixes base's path) is the way to redirect it. The
// gateway needs nothing: its URL comes from GET /gateway, through here.
func apiClient(base string) (*http.Client, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("api_url %q: want http(s)://host[:port][/path]", base)
	}
	// The same bound discordgo.New gives its own client: a proxy that
	// accepts and never answers must not hang a follow-up or shutdown.
	return &http.Client{Timeout: 20 * time.Second, Transport: &rewrite{base: u, next: http.DefaultTransport}}, nil
}

type rewrite struct {
	base *url.URL
	next http.RoundTripper
}

func (t *rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.base.Scheme, t.base.Host, t.base.Host
	if p := strings.TrimSuffix(t.base.Path, "/"); p != "" {
		r.URL.Path = p + r.URL.Path
		r.URL.RawPath = ""
	}
	return t.next.RoundTrip(r)
}
