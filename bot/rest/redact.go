package rest

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
)

// An interaction's token is a credential: for 15 minutes it edits the
// answer and posts follow-ups as the bot, and Discord puts it in the URL
// path (/interactions/{id}/{token}/callback, /webhooks/{app}/{token}/…).
// Go's HTTP client quotes the whole URL in its errors, so a network error
// on such a request would log the token. Every log line the bot writes goes
// through RedactTokens, which blanks the token in any such URL.

// tokenInURL matches the id segment of a token-bearing route and the token
// after it.
var tokenInURL = regexp.MustCompile(`(/(?:interactions|webhooks)/[^/\s"'?]+/)[^/\s"'?]+`)

// redactTokens blanks the tokens of token-bearing URLs in s.
func redactTokens(s string) string { return tokenInURL.ReplaceAllString(s, "${1}[redacted]") }

// RedactTokens wraps a log handler so that no interaction or webhook token
// reaches it: in the message, or in any attribute's text (errors included).
func RedactTokens(h slog.Handler) slog.Handler {
	if _, ok := h.(redactingHandler); ok {
		return h
	}
	return redactingHandler{h}
}

type redactingHandler struct{ next slog.Handler }

func (h redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, redactTokens(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = redactAttr(a)
	}
	return redactingHandler{h.next.WithAttrs(clean)}
}

func (h redactingHandler) WithGroup(name string) slog.Handler {
	return redactingHandler{h.next.WithGroup(name)}
}

// redactAttr blanks tokens in an attribute's text. A value other than a
// string (an error, a URL, a struct) is replaced by its redacted text only
// if its text held a token, so other values keep their form.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		a.Value = slog.StringValue(redactTokens(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = redactAttr(g)
		}
		a.Value = slog.GroupValue(clean...)
	case slog.KindAny:
		s := fmt.Sprint(v.Any())
		if r := redactTokens(s); r != s {
			a.Value = slog.StringValue(r)
		} else {
			a.Value = v
		}
	default:
		a.Value = v
	}
	return a
}
