package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/joho/godotenv"
)

// envMap returns a getenv backed by m.
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := loadConfig(envMap(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DatabasePath != "cribbage.db" || cfg.LogLevel != slog.LevelInfo || cfg.LogJSON || cfg.APIURL != nil || cfg.GuildID != "" ||
		cfg.ReminderAfter != 12*time.Hour || cfg.ForfeitAfter != 7*24*time.Hour {
		t.Errorf("defaults = %+v", cfg)
	}
	if err := cfg.requireToken(); err != errNoToken {
		t.Errorf("requireToken without a token = %v, want errNoToken", err)
	}
}

func TestLoadConfigValues(t *testing.T) {
	cfg, err := loadConfig(envMap(map[string]string{
		"DISCORD_TOKEN":    "abc",
		"DATABASE_PATH":    "/data/x.db",
		"DISCORD_GUILD_ID": "123456789012345678",
		"DISCORD_API_URL":  "http://127.0.0.1:9999/proxy",
		"LOG_LEVEL":        "DEBUG",
		"LOG_FORMAT":       "json",
		"REMINDER_AFTER":   "90m",
		"FORFEIT_AFTER":    "3d",
		"DATABASE_URL":     "postgres://cribbage:secret@db:5432/cribbage",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Token != "abc" || cfg.DatabasePath != "/data/x.db" || cfg.GuildID != "123456789012345678" ||
		cfg.APIURL.String() != "http://127.0.0.1:9999/proxy" || cfg.LogLevel != slog.LevelDebug || !cfg.LogJSON ||
		cfg.ReminderAfter != 90*time.Minute || cfg.ForfeitAfter != 72*time.Hour || cfg.DatabaseURL != "postgres://cribbage:secret@db:5432/cribbage" {
		t.Errorf("config = %+v", cfg)
	}
	if err := cfg.requireToken(); err != nil {
		t.Errorf("requireToken = %v", err)
	}
}

func TestZeroTurnsTimersOff(t *testing.T) {
	cfg, err := loadConfig(envMap(map[string]string{"REMINDER_AFTER": "0", "FORFEIT_AFTER": "0"}))
	if err != nil || cfg.ReminderAfter != 0 || cfg.ForfeitAfter != 0 {
		t.Errorf("%+v, %v", cfg, err)
	}
}

func TestLoadConfigRefusesBadValues(t *testing.T) {
	for key, value := range map[string]string{
		"LOG_LEVEL":          "loud",
		"LOG_FORMAT":         "xml",
		"DISCORD_API_URL":    "discord.com",
		"DISCORD_GUILD_ID":   "my-server",
		"REMINDER_AFTER":     "soon",
		"FORFEIT_AFTER":      "-2h",
		"DATABASE_URL":       "mysql://db/cribbage",
		"DISCORD_PUBLIC_KEY": "not-a-key",
		"SHARD_COUNT":        "-1",
		"SHARD_ID":           "x",
	} {
		t.Run(key, func(t *testing.T) {
			_, err := loadConfig(envMap(map[string]string{key: value}))
			if err == nil {
				t.Fatalf("%s=%q accepted", key, value)
			}
		})
	}
}

// TestEnvironmentBeatsDotEnv checks the precedence main relies on: godotenv
// fills only variables the environment does not already set.
func TestEnvironmentBeatsDotEnv(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".env")
	if err := os.WriteFile(file, []byte("LOG_LEVEL=error\nDATABASE_PATH=from-file.db\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOG_LEVEL", "debug")
	// t.Setenv restores DATABASE_PATH afterwards; unset it so .env supplies it.
	t.Setenv("DATABASE_PATH", "")
	os.Unsetenv("DATABASE_PATH")
	if err := godotenv.Load(file); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.LogLevel != slog.LevelDebug {
		t.Errorf("LOG_LEVEL = %v, want the environment's debug", cfg.LogLevel)
	}
	if cfg.DatabasePath != "from-file.db" {
		t.Errorf("DATABASE_PATH = %q, want the .env value", cfg.DatabasePath)
	}
}

func TestInteractionsEndpointAndShardSettings(t *testing.T) {
	key := strings.Repeat("ab", 32)
	cfg, err := loadConfig(envMap(map[string]string{"INTERACTIONS_ADDR": ":8080", "DISCORD_PUBLIC_KEY": key, "SHARD_ID": "1", "SHARD_COUNT": "4"}))
	if err != nil || cfg.HTTPAddr != ":8080" || len(cfg.PublicKey) != 32 || cfg.ShardID != 1 || cfg.ShardCount != 4 {
		t.Fatalf("%+v, %v", cfg, err)
	}
	for name, env := range map[string]map[string]string{
		"a key without an address":   {"DISCORD_PUBLIC_KEY": key},
		"a shard past the count":     {"SHARD_ID": "4", "SHARD_COUNT": "4"},
		"metrics on the public port": {"INTERACTIONS_ADDR": ":8080", "METRICS_ADDR": ":8080"},
	} {
		if _, err := loadConfig(envMap(env)); err == nil {
			t.Errorf("%s was accepted", name)
		}
	}
}

// TestTheDocsNameEveryVariable: every variable loadConfig reads is in
// README's configuration table and in .env.example, and neither names a
// variable the bot does not read.
func TestTheDocsNameEveryVariable(t *testing.T) {
	read := map[string]bool{}
	loadConfig(func(key string) string {
		read[key] = true
		return ""
	})
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(readme), "| variable | default | meaning |")
	table, _, _ = strings.Cut(table, "\n\n")
	documented := map[string]bool{}
	for _, line := range strings.Split(table, "\n") {
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, name := range regexp.MustCompile("`([A-Z_]+)`").FindAllStringSubmatch(cell, -1) {
			documented[name[1]] = true
		}
	}
	example, err := os.ReadFile("../../.env.example")
	if err != nil {
		t.Fatal(err)
	}
	inExample := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#?\s*([A-Z_]+)=`).FindAllStringSubmatch(string(example), -1) {
		inExample[m[1]] = true
	}
	if len(read) < 10 {
		t.Fatalf("loadConfig read only %v", read)
	}
	for name := range read {
		if !documented[name] {
			t.Errorf("%s is read but not in README's configuration table", name)
		}
		if !inExample[name] {
			t.Errorf("%s is read but not in .env.example", name)
		}
	}
	for name := range documented {
		if !read[name] {
			t.Errorf("README documents %s, which the bot does not read", name)
		}
	}
	for name := range inExample {
		if !read[name] {
			t.Errorf(".env.example sets %s, which the bot does not read", name)
		}
	}
}
