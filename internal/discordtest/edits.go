package discordtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// How an edit reached a message: an interaction's answer that updates the
// message clicked, an edit through an interaction token (a webhook's
// @original or message), an edit with the bot token, or an edit through
// a channel webhook's own token (Edit Webhook Message of a message it
// posted).
const (
	ViaAnswer  = "answer"
	ViaToken   = "token"
	ViaBot     = "bot"
	ViaWebhook = "webhook"
)

// Edit is one edit of a message the fake made: when, how it came (Via),
// the JSON document it sent (a multipart body's payload_json) and how many
// files it uploaded, and whether it left the message showing exactly what
// it showed before.
type Edit struct {
	MessageID string
	At        time.Time
	Via       string
	Body      []byte
	Files     int
	// Identical is set when the message shows byte for byte what it showed
	// before the edit: the same content, embeds and components, and the
	// same attachments (name and bytes; a file uploaded
	// again with the same bytes under the same name changes nothing a
	// reader sees). Such an edit is a request spent on nothing.
	Identical bool
}

// String describes the edit for a test failure.
func (e Edit) String() string {
	return fmt.Sprintf("%s edit of message %s at %s (%d files): %.400s", e.Via, e.MessageID, e.At.Format(time.StampMilli), e.Files, e.Body)
}

// face is what a reader sees of a message, as bytes: equal faces look the
// same. Call with s.mu held.
func (s *Server) face(m *Message) string {
	type file struct {
		Name string
		Sum  [32]byte
	}
	files := make([]file, 0, len(m.Attachments))
	for _, a := range m.Attachments {
		files = append(files, file{a.Filename, s.sums[a.ID]})
	}
	// The components as they were sent, when they were: the same
	// components sent again are the same bytes, since every request the
	// bot makes encodes discordgo's types with encoding/json. (Two bodies
	// that differ only in key order would count as a change.)
	var comps any = m.Components
	if m.raw != nil {
		comps = m.raw
	}
	raw, _ := json.Marshal(struct {
		Content    string
		Embeds     []*discordgo.MessageEmbed
		Components any
		Files      []file
	}{m.Content, m.Embeds, comps, files})
	return string(raw)
}

// noteEdit records an edit of m, made via, whose face before it was
// before. Call with s.mu held.
func (s *Server) noteEdit(m *Message, via, before string, body []byte, files int) {
	s.editLog = append(s.editLog, Edit{MessageID: m.ID, At: s.now(), Via: via, Body: slices.Clone(body), Files: files,
		Identical: s.face(m) == before})
}

// Edits returns every edit of message id, in order ("" for every
// message's).
func (s *Server) Edits(id string) []Edit {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Edit
	for _, e := range s.editLog {
		if id == "" || e.MessageID == id {
			out = append(out, e)
		}
	}
	return out
}

// IdenticalEdits returns every edit, of any message, that left it showing
// what it showed before, in order, but the answers: an interaction's
// answer has to be sent whatever it shows, and costs no request of its
// own (its Via is ViaAnswer, in Edits).
func (s *Server) IdenticalEdits() []Edit {
	var out []Edit
	for _, e := range s.Edits("") {
		if e.Identical && e.Via != ViaAnswer {
			out = append(out, e)
		}
	}
	return out
}

// TB is the part of testing.TB CheckNoIdenticalEdits uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// CheckNoIdenticalEdits fails t for each edit the bot sent that left its
// message showing exactly what it showed (IdenticalEdits): the first few
// in full, then how many in all.
func (s *Server) CheckNoIdenticalEdits(t TB) {
	t.Helper()
	same := s.IdenticalEdits()
	for i, e := range same {
		if i == 5 {
			t.Errorf("… %d identical edits in all", len(same))
			break
		}
		t.Errorf("an edit changed nothing the message shows: %s%s", e, s.history(e))
	}
}

// history describes what reached e's message before e, most recent last
// (at most the four edits or answers before it), each by where its body
// first differs from e's, so a failure says how the message came to show
// what e sent again.
func (s *Server) history(e Edit) string {
	var before []Edit
	for _, b := range s.Edits(e.MessageID) {
		if b.At.Equal(e.At) && b.Via == e.Via && string(b.Body) == string(e.Body) {
			break
		}
		before = append(before, b)
	}
	if len(before) > 4 {
		before = before[len(before)-4:]
	}
	var out strings.Builder
	for _, b := range before {
		d := 0
		for d < len(b.Body) && d < len(e.Body) && b.Body[d] == e.Body[d] {
			d++
		}
		from, to := max(0, d-60), min(len(b.Body), d+140)
		fmt.Fprintf(&out, "\n\tbefore it: %s edit at %s (identical %v), from byte %d: %s", b.Via, b.At.Format(time.StampMilli), b.Identical, from, b.Body[from:to])
	}
	return out.String()
}
