package bot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/refusal"
)

// replayStep is one interaction as Discord delivers it and what the bot
// must answer: a response of a type (ephemeral or not, containing text,
// with buttons), or a refusal worded for the player.
type replayStep struct {
	Interaction json.RawMessage `json:"interaction"`
	Want        struct {
		Type      discordgo.InteractionResponseType `json:"type"`
		Ephemeral bool                              `json:"ephemeral"`
		Contains  string                            `json:"contains"`
		Buttons   []string                          `json:"buttons"`
		Error     string                            `json:"error"`
	} `json:"want"`
}

// TestReplayInteractions replays the interactions in
// testdata/interactions/*.json through the router, each file on a fresh
// in-memory store, and compares the answers (disgo's handler tests do the
// same with recorded interactions).
func TestReplayInteractions(t *testing.T) {
	files, err := filepath.Glob("testdata/interactions/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no interactions to replay: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var script struct {
				Steps []replayStep `json:"steps"`
			}
			if err := json.Unmarshal(raw, &script); err != nil {
				t.Fatal(err)
			}
			u := newUnit(t)
			for n, step := range script.Steps {
				var ic discordgo.Interaction
				if err := json.Unmarshal(step.Interaction, &ic); err != nil {
					t.Fatalf("step %d: %v", n+1, err)
				}
				r, err := u.b.route(t.Context(), &ic)
				w := step.Want
				if w.Error != "" {
					if msg, _ := refusal.Words(lang.English, err); err == nil || msg != w.Error {
						t.Errorf("step %d: got %v (%q), want the refusal %q", n+1, err, msg, w.Error)
					}
					continue
				}
				if err != nil {
					t.Errorf("step %d: %v", n+1, err)
					continue
				}
				resp := r.resp
				ephemeral := resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
				if resp.Type != w.Type || ephemeral != w.Ephemeral || !strings.Contains(responseText(resp), w.Contains) {
					t.Errorf("step %d: type %d, ephemeral %v, content %q; want type %d, ephemeral %v, containing %q",
						n+1, resp.Type, ephemeral, responseText(resp), w.Type, w.Ephemeral, w.Contains)
				}
				for _, id := range w.Buttons {
					if _, ok := button(resp.Data.Components, id); !ok {
						t.Errorf("step %d: no %s button", n+1, id)
					}
				}
			}
		})
	}
}
