package bot

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/command"
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are what the bot tells Prometheus: its interactions by kind and
// outcome and how long they took, the 429s its announcements met, and, on
// each scrape, the outbox's depth and age and the games in progress.
type metrics struct {
	interactions *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	rateLimited  prometheus.Counter
}

// newMetrics registers the bot's metrics with reg (nil: kept, not shown).
func newMetrics(reg prometheus.Registerer, b *Bot) *metrics {
	m := &metrics{
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cribbage_interactions_total",
			Help: "Interactions answered, by kind (a command or button action) and outcome (ok, refused, error, panic)."}, []string{"kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cribbage_interaction_seconds",
			Help:    "Time from receiving an interaction to handing Discord its answer.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"kind"}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{Name: "cribbage_rest_rate_limited_total",
			Help: "Announcements Discord answered with 429 (the table was held back for retry_after)."}),
	}
	live := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cribbage_live_pending",
		Help: "Tables whose table message or hand views are being brought up to date, or are to be in moments (a retry or a spaced edit)."},
		func() float64 { return float64(int64(b.live.Pending()) + b.later.Load()) })
	if reg != nil {
		reg.MustRegister(m.interactions, m.latency, m.rateLimited, live, storeCollector{b})
	}
	return m
}

// interactionKind names an interaction for the metrics: the subcommand or
// the button's action, never anything a user typed.
func interactionKind(ic *discordgo.Interaction) string {
	switch ic.Type {
	case discordgo.InteractionApplicationCommand:
		data := ic.ApplicationCommandData()
		if data.CommandType == discordgo.UserApplicationCommand {
			if _, ok := commandsByName[command.Key{Command: data.Name, Sub: ""}]; ok {
				return "menu:challenge"
			}
			return "menu:unknown"
		}
		if len(data.Options) > 0 {
			if r, ok := commandsByName[command.Key{Command: data.Name, Sub: data.Options[0].Name}]; ok {
				// /cribbage's subcommands by name alone, as before the
				// other commands came; theirs with the command.
				if r.command == command.Play {
					return "command:" + r.name
				}
				return "command:" + r.command + " " + r.name
			}
		}
		return "command:unknown"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionMessageComponent, discordgo.InteractionModalSubmit:
		var id string
		if ic.Type == discordgo.InteractionModalSubmit {
			id = ic.ModalSubmitData().CustomID
		} else {
			id = ic.MessageComponentData().CustomID
		}
		if c, err := click.Parse(id); err == nil {
			return "click:" + string(c.Action)
		}
		return "click:unknown"
	}
	return "other"
}

// observe records one answered interaction.
func (m *metrics) observe(ic *discordgo.Interaction, outcome string, took time.Duration) {
	kind := interactionKind(ic)
	m.interactions.WithLabelValues(kind, outcome).Inc()
	m.latency.WithLabelValues(kind).Observe(took.Seconds())
}

// storeCollector reads the outbox and the tables when Prometheus scrapes.
type storeCollector struct{ b *Bot }

var (
	outboxDepthDesc = prometheus.NewDesc("cribbage_outbox_depth", "Announcements queued and not yet delivered.", nil, nil)
	outboxAgeDesc   = prometheus.NewDesc("cribbage_outbox_oldest_seconds", "Age of the oldest undelivered announcement (0 when none).", nil, nil)
	gamesDesc       = prometheus.NewDesc("cribbage_games_in_progress", "Tables with a game being played.", nil, nil)
)

func (c storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- outboxDepthDesc
	ch <- outboxAgeDesc
	ch <- gamesDesc
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if depth, oldest, err := c.b.store.OutboxDepth(ctx); err == nil {
		age := 0.0
		if depth > 0 {
			age = c.b.now().Sub(oldest).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(outboxDepthDesc, prometheus.GaugeValue, float64(depth))
		ch <- prometheus.MustNewConstMetric(outboxAgeDesc, prometheus.GaugeValue, age)
	}
	if n, err := c.b.store.GamesInProgress(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(gamesDesc, prometheus.GaugeValue, float64(n))
	}
}
