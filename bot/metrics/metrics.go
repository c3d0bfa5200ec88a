// Package metrics is what the bot tells Prometheus: its interactions by
// kind and outcome and how long they took, the 429s its announcements met,
// and, on each scrape, the outbox's depth and age, the games in progress
// and the live surface's backlog.
package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the bot's metrics.
type Metrics struct {
	interactions *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	queued       prometheus.Histogram
	rateLimited  prometheus.Counter
}

// Store is what a scrape reads.
type Store interface {
	OutboxDepth(ctx context.Context) (n int, oldest time.Time, err error)
	GamesInProgress(ctx context.Context) (int, error)
}

// New registers the bot's metrics with reg (nil: kept, not shown). A
// scrape reads the store, with now to date the outbox's oldest item, and
// the live surface's backlog from pending.
func New(reg prometheus.Registerer, store Store, now func() time.Time, pending func() float64) *Metrics {
	buckets := []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}
	m := &Metrics{
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cribbage_interactions_total",
			Help: "Interactions answered, by kind (a command or button action) and outcome (ok, refused, error, panic)."}, []string{"kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cribbage_interaction_seconds",
			Help:    "Time from receiving an interaction to handing Discord its answer.",
			Buckets: buckets}, []string{"kind"}),
		queued: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "cribbage_interaction_queued_seconds",
			Help:    "Time an interaction waited for a worker before its handler ran: more than a few milliseconds means the bot's CPU is what answers wait on.",
			Buckets: buckets}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{Name: "cribbage_rest_rate_limited_total",
			Help: "Announcements Discord answered with 429 (the table was held back for retry_after)."}),
	}
	live := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "cribbage_live_pending",
		Help: "Tables whose table message or hand views are being brought up to date, or are to be in moments (a retry or a spaced edit)."},
		pending)
	if reg != nil {
		reg.MustRegister(m.interactions, m.latency, m.queued, m.rateLimited, live, storeCollector{store, now})
	}
	return m
}

// Observe records one answered interaction of kind (a command or a
// button's action, never anything a user typed).
func (m *Metrics) Observe(kind, outcome string, took time.Duration) {
	m.interactions.WithLabelValues(kind, outcome).Inc()
	m.latency.WithLabelValues(kind).Observe(took.Seconds())
}

// Queued records how long an interaction waited for a worker before its
// handler ran (part of its Observe'd time).
func (m *Metrics) Queued(waited time.Duration) { m.queued.Observe(waited.Seconds()) }

// RateLimited counts an announcement Discord answered with 429.
func (m *Metrics) RateLimited() { m.rateLimited.Inc() }

// storeCollector reads the outbox and the tables when Prometheus scrapes.
type storeCollector struct {
	store Store
	now   func() time.Time
}

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
	if depth, oldest, err := c.store.OutboxDepth(ctx); err == nil {
		age := 0.0
		if depth > 0 {
			age = c.now().Sub(oldest).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(outboxDepthDesc, prometheus.GaugeValue, float64(depth))
		ch <- prometheus.MustNewConstMetric(outboxAgeDesc, prometheus.GaugeValue, age)
	}
	if n, err := c.store.GamesInProgress(ctx); err == nil {
		ch <- prometheus.MustNewConstMetric(gamesDesc, prometheus.GaugeValue, float64(n))
	}
}
