package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// httpLimits bound what the clients of the HTTP servers can hold: a slow
// or idle connection is cut after its timeout, and the connections open at
// once are capped. (The interactions endpoint bounds the large bodies it
// reads itself, see bot/intake.)
type httpLimits struct {
	// ReadHeaderTimeout and ReadTimeout bound reading a request's headers,
	// and all of it; Discord sends an interaction at once.
	ReadHeaderTimeout, ReadTimeout time.Duration
	// WriteTimeout bounds a request from its headers to the end of the
	// answer: an interaction is answered within Discord's 3 seconds.
	WriteTimeout time.Duration
	// IdleTimeout closes a kept-alive connection nobody uses.
	IdleTimeout time.Duration
	// MaxHeaderBytes caps a request's headers.
	MaxHeaderBytes int
	// MaxConns caps the connections served at once; more wait to be
	// accepted until one closes.
	MaxConns int
}

// defaultHTTPLimits are the limits in production.
func defaultHTTPLimits() httpLimits {
	return httpLimits{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second,
		IdleTimeout: 60 * time.Second, MaxHeaderBytes: 16 << 10, MaxConns: 512}
}

// newHTTPServer is an HTTP server for h within the limits.
func newHTTPServer(h http.Handler, lim httpLimits) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: lim.ReadHeaderTimeout, ReadTimeout: lim.ReadTimeout,
		WriteTimeout: lim.WriteTimeout, IdleTimeout: lim.IdleTimeout, MaxHeaderBytes: lim.MaxHeaderBytes}
}

// listeners are the bound addresses: the public one (INTERACTIONS_ADDR)
// and the private one for readiness and metrics (METRICS_ADDR). Either may
// be nil when its address is not set.
type listeners struct {
	interactions, metrics net.Listener
}

// listen binds the configured addresses, before anything else starts, so
// that a port already taken stops the bot at once with a message that
// says which, instead of a bot that registers its commands and then
// serves nothing.
func listen(cfg Config) (listeners, error) {
	var ls listeners
	for _, a := range []struct {
		key, addr string
		to        *net.Listener
	}{{"INTERACTIONS_ADDR", cfg.HTTPAddr, &ls.interactions}, {"METRICS_ADDR", cfg.MetricsAddr, &ls.metrics}} {
		if a.addr == "" {
			continue
		}
		l, err := net.Listen("tcp", a.addr)
		if err != nil {
			ls.close()
			return listeners{}, fmt.Errorf("%s %s: cannot listen there (%w): is another process using the port?", a.key, a.addr, err)
		}
		*a.to = limitListener(l, cfg.Limits.MaxConns)
	}
	return ls, nil
}

// close closes the listeners that are bound.
func (ls listeners) close() {
	for _, l := range []net.Listener{ls.interactions, ls.metrics} {
		if l != nil {
			l.Close()
		}
	}
}

// limitListener accepts at most n connections at once; n <= 0 is no cap.
func limitListener(l net.Listener, n int) net.Listener {
	if n <= 0 {
		return l
	}
	return &capped{Listener: l, slots: make(chan struct{}, n), done: make(chan struct{})}
}

type capped struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *capped) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &cappedConn{Conn: c, release: func() { <-l.slots }}, nil
}

func (l *capped) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	err := l.Listener.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// cappedConn gives its slot back when closed, once.
type cappedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
