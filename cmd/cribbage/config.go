package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/intake"
)

// Config is everything the bot reads from its environment. It is built only
// here, in cmd, so that no other package depends on the process environment.
type Config struct {
	// Token is the bot token; it is never printed or logged.
	Token string
	// DatabasePath is the SQLite file holding games and records, used
	// unless DatabaseURL is set.
	DatabasePath string
	// DatabaseURL, a postgres:// URL, selects a PostgreSQL database that
	// several bot processes may share.
	DatabaseURL string
	// GuildID, when set, registers the slash commands to one server only.
	GuildID string
	// APIURL, when set, replaces https://discord.com for every REST call.
	APIURL *url.URL
	// LogLevel is the least severe level that is logged.
	LogLevel slog.Level
	// LogJSON selects JSON log lines instead of text.
	LogJSON bool
	// ReminderAfter is how long a player may keep a table waiting before
	// the bot reminds them (and again each period); 0 turns reminders off.
	ReminderAfter time.Duration
	// ForfeitAfter is how long without a move before the waiting
	// opponents may claim the win; 0 turns forfeits off.
	ForfeitAfter time.Duration
	// NudgeAfter is how long a table waits on a player before the player
	// is pinged, once; 0 turns the ping off.
	NudgeAfter time.Duration
	// HTTPAddr, when set, is where the public HTTP server listens:
	// /healthz, and with PublicKey the interactions endpoint.
	HTTPAddr string
	// MetricsAddr, when set, is where the private HTTP server listens:
	// /healthz, /readyz and /metrics, which a proxy must not expose.
	MetricsAddr string
	// Limits bound the HTTP servers' clients (not from the environment).
	Limits httpLimits
	// PublicKey, the application's public key, turns on the interactions
	// endpoint at /interactions: Discord delivers interactions there and no
	// gateway connection is opened.
	PublicKey ed25519.PublicKey
	// ShardID and ShardCount split the gateway between processes (0 of 0:
	// the count Discord recommends, in this one process).
	ShardID, ShardCount int
}

// errNoToken is returned by Config.requireToken; main turns it into one clear
// line and exit status 2.
var errNoToken = errors.New("DISCORD_TOKEN is not set: create an application at https://discord.com/developers/applications, open Bot, press Reset Token, and put the token in .env or the environment")

// loadConfig builds a Config from getenv, filling defaults and refusing bad
// values with a message that names the variable and what it accepts. A
// missing token is not an error here: only serving needs it.
func loadConfig(getenv func(string) string) (Config, error) {
	cfg := Config{
		Token:         strings.TrimSpace(getenv("DISCORD_TOKEN")),
		DatabasePath:  strings.TrimSpace(getenv("DATABASE_PATH")),
		DatabaseURL:   strings.TrimSpace(getenv("DATABASE_URL")),
		GuildID:       strings.TrimSpace(getenv("DISCORD_GUILD_ID")),
		LogLevel:      slog.LevelInfo,
		ReminderAfter: 12 * time.Hour,
		ForfeitAfter:  7 * 24 * time.Hour,
		NudgeAfter:    2 * time.Minute,
		Limits:        defaultHTTPLimits(),
	}
	for _, d := range []struct {
		key string
		to  *time.Duration
	}{{"REMINDER_AFTER", &cfg.ReminderAfter}, {"FORFEIT_AFTER", &cfg.ForfeitAfter}, {"NUDGE_AFTER", &cfg.NudgeAfter}} {
		if raw := strings.TrimSpace(getenv(d.key)); raw != "" {
			v, err := cribbage.ParseDuration(raw)
			if err != nil {
				return Config{}, fmt.Errorf("%s %q is not a duration: use a number with a unit, like 12h, 90m or 7d, or 0 to turn it off", d.key, raw)
			}
			*d.to = v
		}
	}
	if cfg.DatabasePath == "" {
		cfg.DatabasePath = "cribbage.db"
	}
	cfg.HTTPAddr = strings.TrimSpace(getenv("INTERACTIONS_ADDR"))
	cfg.MetricsAddr = strings.TrimSpace(getenv("METRICS_ADDR"))
	// Port 0 asks the system for a free port, a different one each time.
	if cfg.MetricsAddr != "" && cfg.MetricsAddr == cfg.HTTPAddr && !strings.HasSuffix(cfg.MetricsAddr, ":0") {
		return Config{}, errors.New("METRICS_ADDR is the same as INTERACTIONS_ADDR: readiness and metrics need a port of their own, one the proxy does not expose, like 127.0.0.1:9090")
	}
	if raw := strings.TrimSpace(getenv("DISCORD_PUBLIC_KEY")); raw != "" {
		key, err := intake.ParsePublicKey(raw)
		if err != nil {
			return Config{}, errors.New("DISCORD_PUBLIC_KEY is not a public key: copy the 64 hex digits of Public Key from the Developer Portal (General Information)")
		}
		if cfg.HTTPAddr == "" {
			return Config{}, errors.New("DISCORD_PUBLIC_KEY is set but INTERACTIONS_ADDR is not: set where the interactions endpoint listens, like :8080")
		}
		cfg.PublicKey = key
	}
	for _, s := range []struct {
		key string
		to  *int
	}{{"SHARD_ID", &cfg.ShardID}, {"SHARD_COUNT", &cfg.ShardCount}} {
		if raw := strings.TrimSpace(getenv(s.key)); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < 0 {
				return Config{}, fmt.Errorf("%s %q is not a number of shards: use 0 or more", s.key, raw)
			}
			*s.to = n
		}
	}
	if cfg.ShardCount > 0 && cfg.ShardID >= cfg.ShardCount {
		return Config{}, fmt.Errorf("SHARD_ID %d is not below SHARD_COUNT %d: shards are numbered from 0", cfg.ShardID, cfg.ShardCount)
	}
	if cfg.DatabaseURL != "" {
		u, err := url.Parse(cfg.DatabaseURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
			return Config{}, errors.New("DATABASE_URL is not a PostgreSQL URL: use one like postgres://cribbage:secret@db:5432/cribbage, or leave it empty for the SQLite file in DATABASE_PATH")
		}
	}
	if cfg.GuildID != "" && !isSnowflake(cfg.GuildID) {
		return Config{}, fmt.Errorf("DISCORD_GUILD_ID %q is not a Discord id: it must be the server's numeric id (Developer Mode → right-click the server → Copy Server ID)", cfg.GuildID)
	}
	if raw := strings.TrimSpace(getenv("DISCORD_API_URL")); raw != "" {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Config{}, fmt.Errorf("DISCORD_API_URL %q is not a base URL: use one like https://discord.com or http://127.0.0.1:8080", raw)
		}
		cfg.APIURL = u
	}
	if raw := strings.TrimSpace(getenv("LOG_LEVEL")); raw != "" {
		level, err := parseLevel(raw)
		if err != nil {
			return Config{}, err
		}
		cfg.LogLevel = level
	}
	switch raw := strings.ToLower(strings.TrimSpace(getenv("LOG_FORMAT"))); raw {
	case "", "text":
	case "json":
		cfg.LogJSON = true
	default:
		return Config{}, fmt.Errorf("LOG_FORMAT %q is not known: use text or json", raw)
	}
	return cfg, nil
}

// requireToken reports errNoToken when the bot has no token to connect with.
func (c Config) requireToken() error {
	if c.Token == "" {
		return errNoToken
	}
	return nil
}

// parseLevel accepts the four level names, in any case.
func parseLevel(raw string) (slog.Level, error) {
	switch strings.ToLower(raw) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("LOG_LEVEL %q is not known: use debug, info, warn or error", raw)
}

// isSnowflake reports whether s looks like a Discord id: 1 to 20 digits.
func isSnowflake(s string) bool {
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
