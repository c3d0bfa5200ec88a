package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/cribbage-bot/cribbage/bot"
	"github.com/cribbage-bot/cribbage/bot/rest"
	"github.com/cribbage-bot/cribbage/store"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// runServe loads the configuration, connects the bot and serves until the
// context ends (SIGINT or SIGTERM).
func runServe(ctx context.Context, env *environment, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: cribbage serve\n\nRuns the Discord bot. Configuration comes from the environment and .env:\nDISCORD_TOKEN (required), DATABASE_PATH or DATABASE_URL, DISCORD_GUILD_ID, DISCORD_API_URL,\nLOG_LEVEL, LOG_FORMAT. See .env.example.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	cfg, err := loadConfig(env.getenv)
	if err == nil {
		err = cfg.requireToken()
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "cribbage: %v\n", err)
		return exitUsage
	}
	logger := newLogger(env.stderr, cfg)
	if err := serve(ctx, cfg, logger); err != nil {
		logger.Error("stopped", "err", err)
		return 1
	}
	return 0
}

// soleOwner names the outbox's lease owner for a process that is the only
// one on its database (SQLite), or "" for a fresh name a run: replicas on
// PostgreSQL, and a gateway split into shards, which are several
// processes even on one SQLite file.
func soleOwner(cfg Config) string {
	if cfg.DatabaseURL != "" || cfg.ShardCount > 1 {
		return ""
	}
	return "sqlite"
}

// serve binds its listeners, then wires the parts together and runs the
// bot until ctx ends, then closes the database. A listener that cannot be
// bound stops it before it opens the database or tells Discord anything.
func serve(ctx context.Context, cfg Config, logger *slog.Logger) error {
	ls, err := listen(cfg)
	if err != nil {
		return err
	}
	defer ls.close()
	return serveOn(ctx, cfg, logger, ls)
}

// serveOn is serve on listeners already bound.
func serveOn(ctx context.Context, cfg Config, logger *slog.Logger, ls listeners) error {
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	// Pruning stops, and is waited for, before the database closes.
	pruned := make(chan struct{})
	defer func() { <-pruned }()
	pruneCtx, stopPruning := context.WithCancel(ctx)
	defer stopPruning()
	go func() {
		defer close(pruned)
		prune(pruneCtx, st, logger)
	}()
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	b, err := bot.New(bot.Options{
		Token:   cfg.Token,
		GuildID: cfg.GuildID,
		APIURL:  cfg.APIURL,
		Store:   st,
		Logger:  logger,
		// The timers: reminders and forfeits.
		ReminderAfter: cfg.ReminderAfter,
		ForfeitAfter:  cfg.ForfeitAfter,
		NudgeAfter:    cfg.NudgeAfter,
		// One process uses a SQLite file: after a restart it is the same
		// sender, and takes its tables' announcements back at once.
		// Replicas sharing PostgreSQL keep an owner each and the leases'
		// rules.
		OutboxOwner: soleOwner(cfg),
		HTTPOnly:    cfg.PublicKey != nil,
		ShardID:     cfg.ShardID,
		ShardCount:  cfg.ShardCount,
		Metrics:     registry,
	})
	if err != nil {
		return err
	}
	var servers []*http.Server
	serveErr := make(chan error, 2)
	start := func(l net.Listener, h http.Handler, what string) {
		srv := newHTTPServer(h, cfg.Limits)
		servers = append(servers, srv)
		logger.Info("HTTP server listening", "addr", l.Addr().String(), "serves", what)
		go func() {
			if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
				serveErr <- fmt.Errorf("HTTP server on %s: %w", l.Addr(), err)
			}
		}()
	}
	if ls.interactions != nil {
		start(ls.interactions, interactionRoutes(b, cfg), "interactions")
	}
	if ls.metrics != nil {
		start(ls.metrics, metricsRoutes(ctx, b.Serving, st, registry), "metrics")
	}
	runErr := b.Run(ctx)
	// The bot has finished its interactions in flight (or given up on
	// them); the servers go, within a bound of their own.
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, srv := range servers {
		srv.Shutdown(shutdown)
	}
	select {
	case err := <-serveErr:
		if runErr == nil {
			return err
		}
	default:
	}
	return runErr
}

// interactionRoutes are what the public listener serves: liveness and,
// with a public key, the interactions endpoint. Nothing on it reads the
// database before a request is verified.
func interactionRoutes(b *bot.Bot, cfg Config) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	if cfg.PublicKey != nil {
		mux.Handle("/interactions", b.InteractionsHandler(cfg.PublicKey))
	}
	return mux
}

// metricsRoutes are what the private listener serves: liveness, readiness
// (the bot takes interactions and the database answers) and Prometheus
// metrics. Readiness and metrics query the database, so they are kept off
// the listener the proxy exposes.
func metricsRoutes(ctx context.Context, serving func() bool, st *store.Store, registry *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		// A shutdown turns readiness off first, so a load balancer stops
		// sending before the interactions endpoint starts refusing.
		if ctx.Err() != nil || !serving() {
			http.Error(w, "not taking interactions: starting up or shutting down", http.StatusServiceUnavailable)
			return
		}
		pingCtx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := st.Ping(pingCtx); err != nil {
			http.Error(w, "database unreachable", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	return mux
}

// Delivered announcements and processed interaction ids are kept a week,
// long past any retry Discord makes, and pruned at start and every hour.
const (
	keepRecords = 7 * 24 * time.Hour
	pruneEvery  = time.Hour
)

// prune deletes old delivered announcements and interaction ids until ctx
// ends, so a bot that runs for months keeps a small outbox.
func prune(ctx context.Context, st *store.Store, logger *slog.Logger) {
	tick := time.NewTicker(pruneEvery)
	defer tick.Stop()
	for {
		if err := st.Prune(ctx, keepRecords); err != nil && ctx.Err() == nil {
			logger.Warn("could not prune old records", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// newLogger builds the process logger in the configured format and level,
// with interaction and webhook tokens blanked in whatever it logs.
func newLogger(w io.Writer, cfg Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogJSON {
		return slog.New(rest.RedactTokens(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(rest.RedactTokens(slog.NewTextHandler(w, opts)))
}

// The SQLite store provides every service the bot uses.
var _ bot.Store = (*store.Store)(nil)

// openStore opens PostgreSQL when DATABASE_URL is set, else the SQLite file.
func openStore(ctx context.Context, cfg Config) (*store.Store, error) {
	if cfg.DatabaseURL != "" {
		return store.OpenPostgres(ctx, cfg.DatabaseURL)
	}
	return store.Open(ctx, cfg.DatabasePath)
}
