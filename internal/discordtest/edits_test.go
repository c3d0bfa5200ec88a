package discordtest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// recordingTB is a TB that keeps what it was told.
type recordingTB struct{ errors []string }

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestIdenticalEditsAreRecorded: each edit of a message is recorded with
// its body and how it came; one that leaves the message showing what it
// showed is marked identical, by what a reader sees (a picture uploaded
// again with the same bytes is the same picture), and
// CheckNoIdenticalEdits fails on it.
func TestIdenticalEditsAreRecorded(t *testing.T) {
	s := withChannel(t)
	pic := string(tinyPNG(t))
	status, body, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"one"}`)
	if status != 200 {
		t.Fatalf("post: %d %v", status, body)
	}
	id := body["id"].(string)
	path := "/channels/" + testChannel + "/messages/" + id
	edit := func(payload string, files map[string][2]string) {
		t.Helper()
		var status int
		if files == nil {
			status, body, _ = do(t, s, http.MethodPatch, path, botAuth, "application/json", []byte(payload))
		} else {
			ct, raw := multipartBody(payload, files)
			status, body, _ = do(t, s, http.MethodPatch, path, botAuth, ct, raw)
		}
		if status != 200 {
			t.Fatalf("edit %s: %d %v", payload, status, body)
		}
	}
	board := map[string][2]string{"files[0]": {"board.png", pic}}
	edit(`{"content":"two"}`, nil)
	edit(`{"content":"two"}`, nil) // the same again
	edit(`{"content":"two",`+boardEmbed+`,"attachments":[{"id":"0"}]}`, board)
	edit(`{"content":"two",`+boardEmbed+`,"attachments":[{"id":"0"}]}`, board) // the same picture again
	edit(`{"content":"three"}`, nil)

	got := s.Edits(id)
	want := []bool{false, true, false, true, false}
	if len(got) != len(want) {
		t.Fatalf("%d edits recorded, want %d", len(got), len(want))
	}
	for i, e := range got {
		if e.Identical != want[i] || e.Via != ViaBot || e.MessageID != id || len(e.Body) == 0 {
			t.Errorf("edit %d: identical %v via %q of %s, want identical %v via bot", i, e.Identical, e.Via, e.MessageID, want[i])
		}
	}
	if got[2].Files != 1 {
		t.Errorf("the edit with a board recorded %d files", got[2].Files)
	}
	var rec recordingTB
	s.CheckNoIdenticalEdits(&rec)
	if len(s.IdenticalEdits()) != 2 || len(rec.errors) != 2 {
		t.Errorf("%d identical edits, %d failures, want 2 and 2: %q", len(s.IdenticalEdits()), len(rec.errors), rec.errors)
	}
}

// TestV2EditsAreToldAndReadAsSent: an edit's components are kept as the
// bot sent them until a reader asks. The same components sent again are
// an identical edit, a changed button is not, and a reader (Message,
// History, the edit's answer) sees each version's components.
func TestV2EditsAreToldAndReadAsSent(t *testing.T) {
	s := withChannel(t)
	body := func(label string) string {
		return `{` + v2 + `,"components":[` + container(texts(1, "Count 15")+`,{"type":1,"components":[{"type":2,"style":1,"label":"`+label+`","custom_id":"/play/1"}]}`) + `]}`
	}
	status, posted, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", body("5♥"))
	if status != 200 {
		t.Fatalf("post: %d %v", status, posted)
	}
	id := posted["id"].(string)
	path := "/channels/" + testChannel + "/messages/" + id
	var answers []map[string]any
	for _, label := range []string{"5♥", "J♣"} {
		status, answer, _ := do(t, s, http.MethodPatch, path, botAuth, "application/json", []byte(body(label)))
		if status != 200 {
			t.Fatalf("edit to %s: %d %v", label, status, answer)
		}
		answers = append(answers, answer)
	}
	if got := s.Edits(id); len(got) != 2 || !got[0].Identical || got[1].Identical {
		t.Errorf("edits %v, want the same components identical and the changed button not", got)
	}
	label := func(m Message) string {
		for _, b := range Buttons(m.Components) {
			return b.Label
		}
		return ""
	}
	if m, _ := s.Message(id); label(m) != "J♣" || !strings.Contains(m.Text(), "Count 15") {
		t.Errorf("the message shows %q with %q, want J♣ and the count", label(m), m.Text())
	}
	var labels []string
	for _, m := range s.History(id) {
		labels = append(labels, label(m))
	}
	if strings.Join(labels, " ") != "5♥ 5♥ J♣" {
		t.Errorf("versions show %q, want 5♥ 5♥ J♣", labels)
	}
	if comps, _ := answers[1]["components"].([]any); len(comps) != 1 || !strings.Contains(fmt.Sprint(comps), "J♣") {
		t.Errorf("the edit's answer carries components %v, want the container with J♣", answers[1]["components"])
	}
}
