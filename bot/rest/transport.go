package rest

import (
	"net/http"
	"net/url"
	"strings"
)

// discordHost is the host discordgo's endpoint variables point at. They are
// computed once at package init, so the bot redirects requests in the HTTP
// transport instead of rewriting them.
const discordHost = "discord.com"

// rewriteTransport sends every request for https://discord.com to another
// base URL (a REST proxy, or the fake Discord in tests), keeping the path
// and query. Requests for other hosts pass through unchanged.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

// NewRewriteTransport returns a transport that redirects discord.com to base.
func NewRewriteTransport(base *url.URL, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = NewTransport()
	}
	return &rewriteTransport{base: base, next: next}
}

// NewTransport is the HTTP transport for REST calls. It keeps enough idle
// connections for many tables answering at once: the default keeps two per
// host, and over HTTP/1.1 (a REST proxy) every other request would open a
// new connection.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 128
	return t
}

// RoundTrip implements http.RoundTripper.
func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != discordHost {
		return t.next.RoundTrip(req)
	}
	// RoundTrippers must not modify the caller's request.
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme = t.base.Scheme
	u.Host = t.base.Host
	u.Path = strings.TrimSuffix(t.base.Path, "/") + req.URL.Path
	if req.URL.RawPath != "" {
		u.RawPath = strings.TrimSuffix(t.base.EscapedPath(), "/") + req.URL.RawPath
	}
	out.URL = &u
	out.Host = u.Host
	return t.next.RoundTrip(out)
}
