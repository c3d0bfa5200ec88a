// Package rest is the bot's client of Discord's REST API: it builds and
// sends requests, bot-token and interaction-token alike, and keeps them
// within Discord's rate limits, which it learns from every answer (Limits).
// It knows requests, buckets and tokens, and nothing of cribbage.
package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Client makes the bot's requests to Discord's REST API: story posts,
// threads, and the table message's and hand views' edits. It checks each
// request against the limits first and makes none that would wait or meet
// a 429; it learns the limits from every answer.
type Client struct {
	// HTTP makes the requests (the bot's, which may send discord.com
	// elsewhere).
	HTTP *http.Client
	// Timeout bounds a request and the reading of its answer; zero sets
	// no bound. It is the deadline of the request's context rather than
	// HTTP's own Timeout: net/http keeps a client's Timeout with a timer
	// and a goroutine of its own for every request, unless the transport
	// is its own *http.Transport, and the bot's rewrites discord.com to a
	// proxy's (or the fake Discord's) address.
	Timeout time.Duration
	// Token is the bot token, sent with requests that are not made with an
	// interaction's token.
	Token  string
	Limits *Limits
}

// Request is one REST request.
type Request struct {
	Method string
	// URL is the endpoint, as discordgo's Endpoint* helpers build it.
	URL string
	// Bucket names the rate-limit bucket: the route and its top-level
	// resource (a channel, a webhook token).
	Bucket string
	// Route names the request in errors and logs, without any token.
	Route string
	Body  any
	Files []*discordgo.File
	// Interaction marks a request made with an interaction's token, which
	// is in URL: no bot token is sent and the global limit does not count
	// it. TokenAt is when the interaction came: a token is used only while
	// TokenUsable has not passed since.
	Interaction bool
	TokenAt     time.Time
	// Webhook marks a channel webhook executed with its own token, which
	// is in URL: no bot token is sent, and the Address budget counts it
	// (see Budget).
	Webhook bool
	// Turn names a bot-token request that its maker makes again until it
	// goes (an announcement a sender delivers): held back by the global
	// budget, it keeps its place in the queue of those held back, and goes
	// before any that came later (Limits.Ready). A request without one
	// takes a free place when it comes.
	Turn string
}

// Discord keeps an interaction's token TokenLife after the interaction;
// the bot uses one only until TokenUsable, a minute short, so that a
// request started then cannot outlive it.
const (
	TokenLife   = 15 * time.Minute
	TokenUsable = TokenLife - time.Minute
)

// Errors of a request.
var (
	// ErrTokenExpired: the interaction token is too old to use; nothing
	// was sent.
	ErrTokenExpired = errors.New("rest: the interaction token is too old to use")
)

// Paced says a request would have had to wait for a rate limit; it was not
// made. Until is when to try again.
type Paced struct{ Until time.Time }

func (e *Paced) Error() string {
	return fmt.Sprintf("rest: rate limited until %s", e.Until.Format(time.StampMilli))
}

// RateLimited is Discord's 429 all the same (another process, or a limit
// the headers did not tell): try again after RetryAfter.
type RateLimited struct {
	RetryAfter time.Duration
	Global     bool
}

func (e *RateLimited) Error() string {
	return fmt.Sprintf("rest: Discord answered 429, retry after %v", e.RetryAfter)
}

// APIError is Discord refusing a request: its status and JSON error code.
type APIError struct {
	Route   string
	Status  int
	Code    int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("rest: %s: Discord answered %d (%d %s)", e.Route, e.Status, e.Code, e.Message)
}

// Permanent reports whether retrying cannot help: Discord refused the
// request itself (a 4xx other than 429), such as a channel that is gone.
func Permanent(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.Status >= 400 && api.Status < 500
}

// TokenRefused reports whether Discord refused an interaction token or the
// message it names (expired, or the message deleted), or the token was too
// old to try: the bot token may still do what the token could not.
func TokenRefused(err error) bool {
	var api *APIError
	return errors.Is(err, ErrTokenExpired) ||
		errors.As(err, &api) && (api.Status == http.StatusUnauthorized || api.Status == http.StatusNotFound)
}

// NotFound reports whether Discord answered 404 (Unknown Message, Unknown
// Channel).
func NotFound(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.Status == http.StatusNotFound
}

// Code is the JSON error code of Discord's answer in err (10008 Unknown
// Message, 40060 answered already), or 0 for none.
func Code(err error) int {
	var api *APIError
	if errors.As(err, &api) {
		return api.Code
	}
	return 0
}

// maxAnswer bounds what is read of an answer.
const maxAnswer = 1 << 20

// Do makes a request unless it would wait for a rate limit (*Paced) or its
// token is too old (ErrTokenExpired), and returns the answer's body.
func (c *Client) Do(ctx context.Context, r Request) ([]byte, error) {
	if r.Interaction && !c.Limits.now().Before(r.TokenAt.Add(TokenUsable)) {
		return nil, ErrTokenExpired
	}
	release, until, ok := c.Limits.take(r.Bucket, r.Turn, r.budget())
	if !ok {
		return nil, &Paced{Until: until}
	}
	var header http.Header
	defer func() { release(header) }()
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	req, err := c.build(ctx, r)
	if err != nil {
		return nil, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		// The URL may hold an interaction's token: the error names the
		// route instead.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("rest: %s: %w", r.Route, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("rest: %s: read the answer: %w", r.Route, err)
	}
	header = resp.Header
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, c.rateLimited(resp.Header, body, r.budget())
	case resp.StatusCode >= 300:
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		json.Unmarshal(body, &e)
		return nil, &APIError{Route: r.Route, Status: resp.StatusCode, Code: e.Code, Message: e.Message}
	}
	return body, nil
}

// budget is the global budget that counts the request.
func (r Request) budget() Budget {
	switch {
	case r.Interaction:
		return Unbudgeted
	case r.Webhook:
		return Address
	}
	return BotToken
}

// build makes the HTTP request: JSON, or multipart with the files.
func (c *Client) build(ctx context.Context, r Request) (*http.Request, error) {
	var body []byte
	contentType := "application/json"
	var err error
	if len(r.Files) > 0 {
		contentType, body, err = discordgo.MultipartBodyWithJSON(wiredBody(r.Body), r.Files)
	} else if r.Body != nil {
		body, err = MarshalBody(r.Body)
	}
	if err != nil {
		return nil, fmt.Errorf("rest: %s: %w", r.Route, err)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("rest: %s: %w", r.Route, err)
	}
	if r.Body != nil || len(r.Files) > 0 {
		req.Header.Set("Content-Type", contentType)
	}
	if r.budget() == BotToken {
		req.Header.Set("Authorization", "Bot "+c.Token)
	}
	req.Header.Set("User-Agent", "DiscordBot (https://github.com/cribbage-bot/cribbage, 1)")
	return req, nil
}

// rateLimited reads a 429: retry_after from the body (seconds, to the
// millisecond) or Retry-After, and whether the limit is global, which
// holds back what budget g counts.
func (c *Client) rateLimited(h http.Header, body []byte, g Budget) error {
	var e struct {
		RetryAfter float64 `json:"retry_after"`
		Global     bool    `json:"global"`
	}
	json.Unmarshal(body, &e)
	wait := time.Duration(e.RetryAfter * float64(time.Second))
	if wait <= 0 {
		if s, err := strconv.Atoi(h.Get("Retry-After")); err == nil {
			wait = time.Duration(s) * time.Second
		}
	}
	// One more millisecond: the answer rounds to the millisecond.
	wait += time.Millisecond
	global := e.Global || h.Get("X-RateLimit-Scope") == "global"
	// A request made with an interaction's token is outside the global
	// budgets: its 429 holds back nothing else.
	if global && g != Unbudgeted {
		c.Limits.holdGlobal(g, c.Limits.now().Add(wait))
	}
	return &RateLimited{RetryAfter: wait, Global: global}
}

// The rate-limit buckets of the bot's requests, as Discord counts them: by
// route and top-level resource. PostBucket is a channel's new messages,
// EditBucket its edits with the bot token, ThreadBucket its new threads,
// TokenBucket the requests made with one interaction's token, and
// CallbackBucket an interaction's answer.
func PostBucket(channelID string) string   { return "post " + channelID }
func EditBucket(channelID string) string   { return "edit " + channelID }
func ThreadBucket(channelID string) string { return "thread " + channelID }
func TokenBucket(token string) string      { return "token " + token }

// WebhookBucket is the bucket of a channel webhook's executions.
func WebhookBucket(webhookID string) string { return "webhook " + webhookID }

// CallbackBucket is the bucket of an interaction's answer: its own, since
// an interaction is answered once.
func CallbackBucket(interactionID string) string { return "callback " + interactionID }

// MessageCreate is a new table message with Discord's enforced nonce,
// which discordgo's MessageSend lacks.
type MessageCreate struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// WebhookEdit is an edit of a message through an interaction's token with
// the flags discordgo's WebhookEdit lacks: every edit of a Components V2
// message says IS_COMPONENTS_V2, as Discord requires of a message of
// layout components, and the edit that makes a legacy message V2 clears
// its content and embeds along with it.
type WebhookEdit struct {
	discordgo.WebhookEdit
	Flags discordgo.MessageFlags `json:"flags,omitempty"`
}
