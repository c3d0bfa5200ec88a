package rest

import (
	"bytes"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

func TestRedactTokens(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Post "https://discord.com/api/v9/interactions/123/aW50ZXJh.Y3Rp-b24_6/callback": EOF`,
			`Post "https://discord.com/api/v9/interactions/123/[redacted]/callback": EOF`},
		{`Patch "https://discord.com/api/v9/webhooks/99/tok-1/messages/@original?wait=true": EOF`,
			`Patch "https://discord.com/api/v9/webhooks/99/[redacted]/messages/@original?wait=true": EOF`},
		{`POST /interactions answered 401`, `POST /interactions answered 401`},
		{`https://discord.com/channels/1/2/3`, `https://discord.com/channels/1/2/3`},
	} {
		if got := redactTokens(tc.in); got != tc.want {
			t.Errorf("redactTokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestRedactingHandler checks a token leaves no trace through the message,
// a string, an error, a URL, a group or an attribute added with With.
func TestRedactingHandler(t *testing.T) {
	const secret = "SECRETTOKEN"
	raw := "https://discord.com/api/v9/webhooks/1/" + secret + "/messages/@original"
	u, _ := url.Parse(raw)
	for _, json := range []bool{false, true} {
		var buf bytes.Buffer
		var h slog.Handler = slog.NewTextHandler(&buf, nil)
		if json {
			h = slog.NewJSONHandler(&buf, nil)
		}
		log := slog.New(RedactTokens(h)).With("with", raw)
		log.Warn("failed "+raw, "s", raw, "err", &url.Error{Op: "Patch", URL: raw, Err: errors.New("EOF")}, "u", u,
			slog.Group("g", "s", raw), "n", 3)
		out := buf.String()
		if strings.Contains(out, secret) || strings.Count(out, "[redacted]") != 6 || !strings.Contains(out, "3") {
			t.Errorf("json %v: %s", json, out)
		}
	}
}
