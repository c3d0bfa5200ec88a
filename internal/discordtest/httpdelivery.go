package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Discord can deliver interactions over HTTP instead of the gateway: it
// POSTs each one to the application's Interactions Endpoint URL, signed
// with Ed25519 over the timestamp and the body, and takes the HTTP response
// as the interaction's answer. That answer must be JSON: Discord fails an
// interaction answered with multipart/form-data (files go in a later edit
// through the interaction's token).

// PublicKey is the application's public key in hex, as the Developer
// Portal shows it.
func (s *Server) PublicKey() string { return hex.EncodeToString(s.signer.Public().(ed25519.PublicKey)) }

// DeliverOverHTTP makes Send POST interactions to url, signed, instead of
// dispatching them on the gateway. With several URLs (replicas behind a
// load balancer), each interaction goes to the next in turn.
func (s *Server) DeliverOverHTTP(urls ...string) {
	s.mu.Lock()
	s.endpoints = append([]string(nil), urls...)
	s.mu.Unlock()
}

// nextEndpoint picks the endpoint for the next interaction, or "".
func (s *Server) nextEndpoint() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.endpoints) == 0 {
		return ""
	}
	s.turn++
	return s.endpoints[s.turn%len(s.endpoints)]
}

// Sign returns the headers Discord signs a request body with, at the
// fake's time: for tests that send their own requests to an endpoint.
func (s *Server) Sign(body []byte) http.Header { return s.SignAt(body, s.Now()) }

// SignAt is Sign with the timestamp at: for tests of requests stamped
// ahead of (or behind) the receiver's clock.
func (s *Server) SignAt(body []byte, at time.Time) http.Header {
	stamp := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(s.signer, append([]byte(stamp), body...))
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	h.Set("X-Signature-Timestamp", stamp)
	return h
}

// deliverHTTP POSTs an interaction to the endpoint and treats the HTTP
// response as its callback: held to the same contract, rules and timing.
func (s *Server) deliverHTTP(ctx context.Context, url string, i *discordgo.Interaction) error {
	body, err := json.Marshal(wire(i))
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = s.Sign(body)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("discordtest: POST the interaction: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("discordtest: the endpoint answered %d to a valid interaction: %s", resp.StatusCode, answer)
	}
	callback := "/api/v9/interactions/" + i.ID + "/" + i.Token + "/callback"
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		s.refuse(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, callback, nil), answer,
			&apiError{Status: 400, Code: 50035, Message: "An interaction answered over HTTP must be application/json, not " + resp.Header.Get("Content-Type")})
		return nil
	}
	// The answer goes through the callback route, so it meets every check
	// an answer over REST meets.
	cb := httptest.NewRequest(http.MethodPost, callback, bytes.NewReader(answer))
	cb.Header.Set("Content-Type", "application/json")
	s.serveREST(httptest.NewRecorder(), cb)
	return nil
}
