package rest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

func TestRewriteTransport(t *testing.T) {
	var gotPath, gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotQuery = r.URL.Path, r.URL.RawQuery
		io.WriteString(w, "ok")
	}))
	defer srv.Close()

	tests := []struct {
		name, base, request, wantPath string
	}{
		{"plain host", srv.URL, "https://discord.com/api/v9/gateway?x=1", "/api/v9/gateway"},
		{"base with path prefix", srv.URL + "/proxy/", "https://discord.com/api/v9/users/@me?x=1", "/proxy/api/v9/users/@me"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, _ := url.Parse(tc.base)
			client := &http.Client{Transport: NewRewriteTransport(base, nil)}
			resp, err := client.Get(tc.request)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if gotPath != tc.wantPath || gotQuery != "x=1" {
				t.Errorf("server saw %q?%q, want %q?x=1", gotPath, gotQuery, tc.wantPath)
			}
		})
	}
}

func TestRewriteTransportLeavesOtherHosts(t *testing.T) {
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer srv.Close()
	base, _ := url.Parse("http://127.0.0.1:1") // nothing listens here
	client := &http.Client{Transport: NewRewriteTransport(base, nil)}
	resp, err := client.Get(srv.URL + "/direct")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if hits != 1 {
		t.Errorf("request to another host was redirected")
	}
}
