package discordtest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tinyPNG is a real one-pixel PNG.
func tinyPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.White)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// multipartBody builds a body with payload_json and files named as given.
func multipartBody(payload string, files map[string][2]string) (string, []byte) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("payload_json", payload)
	for field, f := range files {
		fw, _ := mw.CreateFormFile(field, f[0])
		fw.Write([]byte(f[1]))
	}
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

const boardEmbed = `"embeds":[{"title":"t","image":{"url":"attachment://board.png"}}]`

// TestBadUploadsAreRefused plants every upload mistake the bot could make:
// each is refused and recorded as a violation, naming the field.
func TestBadUploadsAreRefused(t *testing.T) {
	pic := string(tinyPNG(t))
	eleven := map[string][2]string{}
	for i := range 11 {
		eleven[fmt.Sprintf("files[%d]", i)] = [2]string{fmt.Sprintf("f%d.png", i), pic}
	}
	for _, tc := range []struct {
		name    string
		payload string
		files   map[string][2]string
		field   string
		status  int
	}{
		{"an embed showing a file never uploaded", `{` + boardEmbed + `}`, nil, "embeds.0.image.url", 400},
		{"an embed showing another file", `{` + boardEmbed + `}`, map[string][2]string{"files[0]": {"other.png", pic}}, "embeds.0.image.url", 400},
		{"a .png that is not a PNG", `{"content":"x"}`, map[string][2]string{"files[0]": {"board.png", "GIF89a"}}, "files[0]", 400},
		{"a file left out of the attachments list", `{"content":"x","attachments":[{"id":"1"}]}`, map[string][2]string{"files[0]": {"a.png", pic}, "files[1]": {"b.png", pic}}, "attachments", 400},
		{"an attachment that is neither kept nor uploaded", `{"content":"x","attachments":[{"id":"0"},{"id":"5"}]}`, map[string][2]string{"files[0]": {"a.png", pic}}, "attachments.1.id", 400},
		{"a part with another name", `{"content":"x"}`, map[string][2]string{"file": {"a.png", pic}}, "file", 400},
		{"eleven files", `{"content":"x"}`, eleven, "files", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := withChannel(t)
			var status int
			var body map[string]any
			if tc.files == nil {
				status, body, _ = postJSON(t, s, "/channels/"+testChannel+"/messages", tc.payload)
			} else {
				ct, raw := multipartBody(tc.payload, tc.files)
				status, body, _ = do(t, s, http.MethodPost, "/channels/"+testChannel+"/messages", botAuth, ct, raw)
			}
			if status != tc.status || field(body, tc.field) == "" {
				t.Errorf("answered %d %v, want %d naming %s", status, body, tc.status, tc.field)
			}
			if len(s.Violations()) != 1 {
				t.Errorf("%d violations recorded, want 1", len(s.Violations()))
			}
		})
	}
}

// TestAttachmentsAcrossEdits follows a picture through a message's edits
// as Discord keeps it: an edit without an attachments list keeps the
// picture (and an embed may still show it), a list replaces the files, and
// an empty list removes them, after which the embed cannot show it.
func TestAttachmentsAcrossEdits(t *testing.T) {
	s := withChannel(t)
	pic := string(tinyPNG(t))
	ct, raw := multipartBody(`{`+boardEmbed+`,"attachments":[{"id":"0","filename":"board.png"}]}`, map[string][2]string{"files[0]": {"board.png", pic}})
	status, body, _ := do(t, s, http.MethodPost, "/channels/"+testChannel+"/messages", botAuth, ct, raw)
	if status != 200 {
		t.Fatalf("posting a picture: %d %v", status, body)
	}
	id, _ := body["id"].(string)
	edit := "/channels/" + testChannel + "/messages/" + id
	if status, body, _ := do(t, s, http.MethodPatch, edit, botAuth, "application/json", []byte(`{"content":"kept",`+boardEmbed+`}`)); status != 200 {
		t.Fatalf("an edit keeping the picture: %d %v", status, body)
	}
	m, _ := s.Message(id)
	first := m.Attachments[0].ID
	if data, ok := s.File(m, "board.png"); len(m.Attachments) != 1 || !ok || string(data) != pic {
		t.Fatalf("after an edit without attachments: %+v", m.Attachments)
	}
	ct, raw = multipartBody(`{`+boardEmbed+`,"attachments":[{"id":"0","filename":"board.png"}]}`, map[string][2]string{"files[0]": {"board.png", pic}})
	if status, body, _ := do(t, s, http.MethodPatch, edit, botAuth, ct, raw); status != 200 {
		t.Fatalf("replacing the picture: %d %v", status, body)
	}
	m, _ = s.Message(id)
	if len(m.Attachments) != 1 || m.Attachments[0].ID == first {
		t.Fatalf("after replacing: %+v", m.Attachments)
	}
	status, body, _ = do(t, s, http.MethodPatch, edit, botAuth, "application/json", []byte(`{`+boardEmbed+`,"attachments":[]}`))
	if status != 400 || !strings.Contains(fmt.Sprint(body), "ATTACHMENT_NOT_FOUND") {
		t.Errorf("removing the picture an embed shows: %d %v", status, body)
	}
	if status, body, _ := do(t, s, http.MethodPatch, edit, botAuth, "application/json", []byte(`{"embeds":[],"attachments":[]}`)); status != 200 {
		t.Fatalf("removing the picture and the embed: %d %v", status, body)
	}
	if m, _ = s.Message(id); len(m.Attachments) != 0 {
		t.Errorf("an empty attachments list kept %+v", m.Attachments)
	}
	if n := len(s.Violations()); n != 1 {
		t.Errorf("%d violations, want the 1 planted", n)
	}
}

// TestConcurrentEditsKeepEachOthersFiles: Discord applies a message's
// edits one after another, so edits that arrive together, each uploading
// a file and listing no attachments, leave the message with every file.
// The fake worked out an edit's attachments from the message as it stood
// when the edit began and wrote them after: the later write dropped what
// the other had added. Under load a table message lost the board the bot
// had just uploaded (its Join answer landing at once), and the next edit,
// which showed the board, was refused.
func TestConcurrentEditsKeepEachOthersFiles(t *testing.T) {
	s := withChannel(t)
	// Each request in a rate-limit window of its own: the edits race
	// rather than queue.
	var tick atomic.Int64
	base := time.Now()
	s.SetRateClock(func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Hour) })
	pic := string(tinyPNG(t))
	for round := range 100 {
		status, body, _ := postJSON(t, s, "/channels/"+testChannel+"/messages", `{"content":"x"}`)
		id, _ := body["id"].(string)
		if status != 200 || id == "" {
			t.Fatalf("posting: %d %v", status, body)
		}
		var wg sync.WaitGroup
		failed := make(chan string, maxFiles)
		for i := range maxFiles {
			wg.Go(func() {
				ct, raw := multipartBody(`{"content":"edit"}`, map[string][2]string{"files[0]": {fmt.Sprintf("f%d.png", i), pic}})
				req, _ := http.NewRequest(http.MethodPatch, s.URL()+"/api/v9/channels/"+testChannel+"/messages/"+id, bytes.NewReader(raw))
				req.Header.Set("Authorization", botAuth)
				req.Header.Set("Content-Type", ct)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					failed <- err.Error()
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					failed <- resp.Status
				}
			})
		}
		wg.Wait()
		close(failed)
		for f := range failed {
			t.Fatalf("round %d: an edit failed: %s", round, f)
		}
		if m, _ := s.Message(id); len(m.Attachments) != maxFiles {
			t.Fatalf("round %d: %d edits at once, each adding a file, left %d files", round, maxFiles, len(m.Attachments))
		}
	}
}
