package discordtest

import (
	"fmt"
	"hash/fnv"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Discord's rate limits (docs: topics/rate-limits): each route has a bucket
// per top-level resource (channel, guild, or webhook and token), announced
// in X-RateLimit-* headers on every answer; on top of them a bot may make 50
// requests a second in all, where interaction callbacks and the
// interaction-token webhook routes do not count; and "if no authorization
// header is provided, then the limit is applied to the IP address": a
// channel webhook executed with its own token counts against its
// address's 50 a second, apart from the bot's. A request over a limit is
// answered 429 with retry_after and X-RateLimit-Scope. The fake keeps them
// on real time, since that is what a client sleeps on.

// globalLimit is how many requests a second Discord takes with the bot
// token, and without authorization from one address.
const globalLimit = 50

// globalCount names the global window a request counts against: "" for
// an interaction's callback or a route of its token (webhook id the
// application's), which none counts ("Interaction endpoints are not bound
// to the bot's Global Rate Limit"); else "bot" for a request with the bot
// token, a channel webhook's among them; else "address <ip>", for a
// request without authorization (a channel webhook executed with its own
// token alone).
func (s *Server) globalCount(r *http.Request, template string, p map[string]string, botToken bool) string {
	switch {
	case strings.HasPrefix(template, "/interactions/"), tokenInPath(template) && !s.isChannelWebhook(template, p):
		return ""
	case botToken:
		return "bot"
	}
	return "address " + addressOf(r)
}

// addressOf is the address a request came from (its remote address's
// host), which Discord counts requests without authorization against.
func addressOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// bucketRule is a route's limit: Limit requests per Window.
type bucketRule struct {
	Name   string
	Limit  int
	Window time.Duration
}

// ruleFor returns the bucket rule of an operation and the top-level resource
// it is counted per.
func ruleFor(method, template string, params map[string]string) (bucketRule, string) {
	switch {
	case method == http.MethodPost && template == "/channels/{channel_id}/messages":
		// "about 5 messages per 5 s per channel".
		return bucketRule{"message-create", 5, 5 * time.Second}, params["channel_id"]
	case method == http.MethodPatch && template == "/channels/{channel_id}/messages/{message_id}":
		return bucketRule{"message-edit", 5, 5 * time.Second}, params["channel_id"]
	case strings.HasSuffix(template, "/threads"):
		return bucketRule{"thread-create", 5, 5 * time.Second}, params["channel_id"]
	case strings.HasPrefix(template, "/webhooks/{webhook_id}/{webhook_token}"):
		return bucketRule{"webhook " + method, 5, 2 * time.Second}, params["webhook_id"] + "/" + params["webhook_token"]
	case strings.HasPrefix(template, "/interactions/"):
		return bucketRule{"interaction-callback", 5, time.Second}, params["interaction_id"]
	case strings.Contains(template, "/commands"):
		return bucketRule{"commands " + method, 5, 20 * time.Second}, params["application_id"] + "/" + params["guild_id"]
	}
	major := params["channel_id"] + params["guild_id"] + params["webhook_id"]
	return bucketRule{method + " " + template, 50, time.Second}, major
}

// tokenInPath reports whether a route carries its own token in its path,
// an interaction's or a webhook's, and so needs no authorization.
func tokenInPath(template string) bool {
	return strings.HasPrefix(template, "/interactions/") || strings.HasPrefix(template, "/webhooks/{webhook_id}/{webhook_token}")
}

// bucket is one route's window for one resource.
type bucket struct {
	rule    bucketRule
	resetAt time.Time
	used    int
}

// limiter holds the buckets and the global window.
type limiter struct {
	// clock is real time; the fake's own tests freeze it, so a slow run
	// cannot slide a window under them.
	clock   func() time.Time
	mu      sync.Mutex
	buckets map[string]*bucket
	// global are the accepted requests of the last second, by the window
	// that counts them (see globalCount).
	global  map[string][]time.Time
	limited map[string]int
}

func newLimiter() *limiter {
	return &limiter{clock: time.Now, buckets: map[string]*bucket{}, global: map[string][]time.Time{}, limited: map[string]int{}}
}

// now is the limiter's time.
func (l *limiter) now() time.Time {
	l.mu.Lock()
	clock := l.clock
	l.mu.Unlock()
	return clock()
}

// rateDecision is the limiter's answer to one request.
type rateDecision struct {
	headers http.Header
	// refused is set when the request is over a limit: its scope ("user" for
	// a route's bucket, "global") and how long to wait.
	refused    bool
	scope      string
	retryAfter time.Duration
}

// take counts a request against its bucket and the global window named
// global (none if ""), and says whether it may go through. A 429 of the
// address's window counts as "address" in RateLimited, the bot's as
// "global".
func (l *limiter) take(now time.Time, method, template string, params map[string]string, global string) rateDecision {
	rule, major := ruleFor(method, template, params)
	l.mu.Lock()
	defer l.mu.Unlock()
	if global != "" {
		window := l.global[global]
		cut := 0
		for cut < len(window) && now.Sub(window[cut]) >= time.Second {
			cut++
		}
		window = window[cut:]
		l.global[global] = window
		if len(window) >= globalLimit {
			wait := window[0].Add(time.Second).Sub(now)
			if global == "bot" {
				l.limited["global"]++
			} else {
				l.limited["address"]++
			}
			h := http.Header{}
			h.Set("X-RateLimit-Global", "true")
			h.Set("X-RateLimit-Scope", "global")
			h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			return rateDecision{headers: h, refused: true, scope: "global", retryAfter: wait}
		}
	}
	key := rule.Name + "|" + major
	b, ok := l.buckets[key]
	if !ok || !now.Before(b.resetAt) {
		b = &bucket{rule: rule, resetAt: now.Add(rule.Window)}
		l.buckets[key] = b
	}
	if b.used >= rule.Limit {
		wait := b.resetAt.Sub(now)
		l.limited["user"]++
		h := b.headers(now)
		h.Set("X-RateLimit-Scope", "user")
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		return rateDecision{headers: h, refused: true, scope: "user", retryAfter: wait}
	}
	b.used++
	if global != "" {
		l.global[global] = append(l.global[global], now)
	}
	return rateDecision{headers: b.headers(now)}
}

// headers announces a bucket's state. Reset-After is rounded up to the
// millisecond, so a client that waits for it is never early.
func (b *bucket) headers(now time.Time) http.Header {
	h := http.Header{}
	h.Set("X-RateLimit-Limit", strconv.Itoa(b.rule.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(b.rule.Limit-b.used))
	after := math.Ceil(float64(b.resetAt.Sub(now).Microseconds())/1000) / 1000
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after, 'f', 3, 64))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(b.resetAt.UnixMilli())/1000, 'f', 3, 64))
	f := fnv.New64a()
	f.Write([]byte(b.rule.Name))
	h.Set("X-RateLimit-Bucket", fmt.Sprintf("%016x", f.Sum64()))
	return h
}

// SetRateClock runs the fake's rate limits on clock instead of real time,
// so that a test of a client's pacing moves the clock rather than sleeping
// through Discord's windows. The client under test must run on the same
// clock.
func (s *Server) SetRateClock(clock func() time.Time) {
	s.limits.mu.Lock()
	defer s.limits.mu.Unlock()
	s.limits.clock = clock
}

// RateLimited returns how many requests were answered 429 by scope ("user"
// for a route's bucket, "global" the bot token's, "address" the requests
// without authorization from one address), not counting injected faults.
func (s *Server) RateLimited() map[string]int {
	s.limits.mu.Lock()
	defer s.limits.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.limits.limited {
		out[k] = v
	}
	return out
}

// writeRateLimited answers 429 as Discord does.
func writeRateLimited(w http.ResponseWriter, d rateDecision) {
	for k, v := range d.headers {
		w.Header()[k] = v
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": math.Ceil(d.retryAfter.Seconds()*1000) / 1000,
		"global":      d.scope == "global",
	})
}
