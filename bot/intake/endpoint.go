// Package intake is Discord's Interactions Endpoint: Discord POSTs each
// interaction, signed with Ed25519, and the HTTP response is the
// interaction's answer. The bot then needs no gateway connection, so it
// runs as any number of replicas behind a load balancer. The endpoint
// checks what arrives and hands each interaction on; what it means is the
// bot's.
package intake

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

const (
	// maxInteractionBody is the largest request taken; interactions are a
	// few kilobytes.
	maxInteractionBody = 1 << 20
	// maxSignatureAge is how old (or how far ahead) a request's timestamp
	// may be: a captured request cannot be replayed later.
	maxSignatureAge = 5 * time.Minute
	// smallBody is the size up to which a body is read without a slot:
	// every interaction Discord sends fits many times over.
	smallBody = 64 << 10
	// largeBodySlots is how many bodies larger than smallBody (or of
	// unknown length) are read at once. Until a body is read its signature
	// cannot be checked, so anyone can send one: the slots bound the memory
	// such bodies hold, whoever sends them and however slowly.
	largeBodySlots = 8
)

// Handler is given each interaction the endpoint verified, with out,
// where its answer goes.
type Handler func(ctx context.Context, ic *discordgo.Interaction, out Out)

// Out is where the answer to an interaction that came over HTTP goes: the
// handler sends its body (an interaction response) on Body, at most once,
// and the request's goroutine writes it as the HTTP response and closes
// Written once it has, or once the request is gone. A handler waits on
// Written after sending, so whatever it does next through the
// interaction's token comes after the answer is written (the server
// sends it as the request's handler returns, at once). The zero Out
// (nil channels) stands for an interaction that did not come over HTTP.
type Out struct {
	Body    chan<- []byte
	Written <-chan struct{}
}

// Endpoint is the handler for the Interactions Endpoint URL.
type Endpoint struct {
	key ed25519.PublicKey
	now func() time.Time
	// gate is open while the bot takes interactions.
	gate   *Gate
	handle Handler
	seen   replayGuard
	// large holds a slot for each large body being read.
	large chan struct{}
}

// New returns the endpoint, verifying every request against the
// application's public key (the hex key of the Developer Portal) and
// handing each interaction to handle in a goroutine of its own. It
// answers PING itself, and 503 while gate is closed.
func New(publicKey ed25519.PublicKey, now func() time.Time, gate *Gate, handle Handler) *Endpoint {
	return &Endpoint{key: publicKey, now: now, gate: gate, handle: handle, seen: replayGuard{now: now}, large: make(chan struct{}, largeBodySlots)}
}

// Gate says whether the bot takes interactions: from Open until the
// context it was opened with to stop ends, or Close. Its zero value is
// closed. It is the bot's, which opens it once it serves; the endpoint
// only looks.
type Gate struct{ open atomic.Pointer[gateOpen] }

// gateOpen is an open gate's contexts.
type gateOpen struct{ run, stop context.Context }

// Open opens the gate: interactions are handled in run until stop ends.
func (g *Gate) Open(run, stop context.Context) { g.open.Store(&gateOpen{run: run, stop: stop}) }

// Close closes the gate.
func (g *Gate) Close() { g.open.Store(nil) }

// Taking returns the context interactions are handled in, or false while
// the gate is closed: the bot is starting up, or its shutdown has begun
// (stop has ended, even before Close).
func (g *Gate) Taking() (context.Context, bool) {
	o := g.open.Load()
	if o == nil || o.stop.Err() != nil {
		return nil, false
	}
	return o.run, true
}

// ParsePublicKey reads the application's public key as the Developer
// Portal shows it: 64 hex digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	raw, err := hex.DecodeString(s)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, errors.New("intake: a public key is 64 hex digits")
	}
	return ed25519.PublicKey(raw), nil
}

// ServeHTTP takes one request.
func (e *Endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "interactions are POSTed", http.StatusMethodNotAllowed)
		return
	}
	// What can be refused before the body is read is: a request without a
	// well-formed signature and a timestamp in the window, and one whose
	// declared length is too large.
	if _, _, ok := e.signatureHeaders(r.Header); !ok {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	if r.ContentLength > maxInteractionBody {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	if r.ContentLength < 0 || r.ContentLength > smallBody {
		select {
		case e.large <- struct{}{}:
			defer func() { <-e.large }()
		default:
			http.Error(w, "too many large requests at once", http.StatusServiceUnavailable)
			return
		}
	}
	body, err := readBody(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "could not read the request", http.StatusBadRequest)
		return
	}
	if !e.verify(r.Header, body) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var ic discordgo.Interaction
	if err := json.Unmarshal(body, &ic); err != nil {
		http.Error(w, "not an interaction", http.StatusBadRequest)
		return
	}
	if ic.Type == discordgo.InteractionPing {
		writeInteractionJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	runCtx, ok := e.gate.Taking()
	if !ok {
		http.Error(w, "not taking interactions: starting up or shutting down", http.StatusServiceUnavailable)
		return
	}
	out, written := make(chan []byte, 1), make(chan struct{})
	go e.handle(runCtx, &ic, Out{Body: out, Written: written})
	select {
	case body := <-out:
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
		close(written)
	case <-r.Context().Done():
		close(written)
	}
}

// readBody reads a request body of at most maxInteractionBody. The buffer
// grows with what arrives, not with the length declared, so a client that
// declares a megabyte and sends a byte a second holds next to nothing.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(min(r.ContentLength, 4<<10)))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, maxInteractionBody))
	return buf.Bytes(), err
}

// signatureHeaders reads the request's signature and timestamp, and
// reports whether they are well formed and the timestamp is recent.
func (e *Endpoint) signatureHeaders(h http.Header) (sig []byte, stamp string, ok bool) {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, "", false
	}
	stamp = h.Get("X-Signature-Timestamp")
	secs, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return nil, "", false
	}
	if age := e.now().Sub(time.Unix(secs, 0)); age > maxSignatureAge || age < -maxSignatureAge {
		return nil, "", false
	}
	return sig, stamp, true
}

// verify checks the request's Ed25519 signature over its timestamp and
// body, that the timestamp is recent, and that the same signed request was
// not seen before.
func (e *Endpoint) verify(h http.Header, body []byte) bool {
	sig, stamp, ok := e.signatureHeaders(h)
	if !ok || !ed25519.Verify(e.key, append([]byte(stamp), body...), sig) {
		return false
	}
	secs, _ := strconv.ParseInt(stamp, 10, 64)
	return e.seen.first(string(sig), time.Unix(secs, 0).Add(maxSignatureAge))
}

// replayGuard remembers the signature of every request until its
// timestamp leaves the window, so an exact replay is refused for as long
// as its timestamp would be accepted: a request stamped ahead of the clock
// is kept longer. (A change is applied once anyway, by its interaction id;
// this also keeps a replayed command from being answered twice.) Only
// requests Discord signed are recorded, so only Discord can grow it.
type replayGuard struct {
	now func() time.Time
	mu  sync.Mutex
	// until holds each signature seen and when its timestamp expires.
	until map[string]time.Time
	// pruned is when expired signatures were last dropped.
	pruned time.Time
}

// pruneEvery is how often the guard drops expired signatures: often
// enough to stay small, seldom enough that the scan costs nothing.
const pruneEvery = 30 * time.Second

// first records sig, whose timestamp expires at expires, and reports
// whether it is new.
func (g *replayGuard) first(sig string, expires time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if g.until == nil {
		g.until = map[string]time.Time{}
	}
	if now.Sub(g.pruned) >= pruneEvery {
		for s, t := range g.until {
			if now.After(t) {
				delete(g.until, s)
			}
		}
		g.pruned = now
	}
	if _, seen := g.until[sig]; seen {
		return false
	}
	g.until[sig] = expires
	return true
}

// writeInteractionJSON writes an answer as the HTTP response.
func writeInteractionJSON(w http.ResponseWriter, resp *discordgo.InteractionResponse) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}
