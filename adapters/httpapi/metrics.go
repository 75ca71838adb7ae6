package httpapi

import (
	"context"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/ports"
)

// metrics are the server's Prometheus series. Each server has a registry of
// its own rather than the global default, so that several servers can live
// in one process (tests build many) without clashing registrations.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newMetrics registers the request series, the Go runtime and process
// collectors, the event streams open on this server (streams counts
// them), and the store's pool, query, read and backlog figures when pools,
// queries, reads and backlog are not nil.
func newMetrics(pools ports.PoolReporter, queries ports.QueryCounter, reads ports.ReadReporter, backlog ports.BacklogReporter, streams *atomic.Int64) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total",
			Help: "HTTP requests answered, by method, route template and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "Time from the request reaching the router to its response being ready, by method, route template and status.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route", "status"}),
	}
	m.registry.MustRegister(
		m.requests, m.duration,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "inkwell_event_streams_open",
			Help: "Event streams (GET /api/v1/events) open on this replica.",
		}, func() float64 { return float64(streams.Load()) }),
	)
	if backlog != nil {
		m.registry.MustRegister(backlogCollector{backlog})
	}
	if pools != nil {
		m.registry.MustRegister(poolCollector{pools})
	}
	if queries != nil {
		m.registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "store_queries_total",
			Help: "Statements sent to the store.",
		}, func() float64 { return float64(queries.Queries()) }))
	}
	if reads != nil {
		m.registry.MustRegister(readCollector{reads})
	}
	return m
}

// observe counts one answered request.
func (m *metrics) observe(method, route string, status int, took time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(method, route, code).Inc()
	m.duration.WithLabelValues(method, route, code).Observe(took.Seconds())
}

// handler serves the registry in the Prometheus text format (or OpenMetrics
// when the scraper asks for it).
func (m *metrics) handler() fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{}))
}

// Descriptions of the store pool series; every one has the pool label.
var (
	poolInUse = prometheus.NewDesc("store_pool_acquired_connections",
		"Connections currently handed out by the pool.", []string{"pool"}, nil)
	poolIdle = prometheus.NewDesc("store_pool_idle_connections",
		"Connections idle in the pool.", []string{"pool"}, nil)
	poolOpen = prometheus.NewDesc("store_pool_total_connections",
		"Connections the pool holds, in use, idle or being opened.", []string{"pool"}, nil)
	poolMax = prometheus.NewDesc("store_pool_max_connections",
		"The most connections the pool may hold.", []string{"pool"}, nil)
	poolWaits = prometheus.NewDesc("store_pool_waits_total",
		"Acquisitions that found no idle connection and waited.", []string{"pool"}, nil)
	poolWaitTime = prometheus.NewDesc("store_pool_wait_seconds_total",
		"Total time acquisitions spent waiting for a connection.", []string{"pool"}, nil)
	poolAcquires = prometheus.NewDesc("store_pool_acquires_total",
		"Successful acquisitions of a connection.", []string{"pool"}, nil)
	poolAcquireTime = prometheus.NewDesc("store_pool_acquire_seconds_total",
		"Total time successful acquisitions took.", []string{"pool"}, nil)
)

// poolCollector reads the store's pool figures at scrape time, so that the
// series are as fresh as the scrape and cost nothing between scrapes.
type poolCollector struct {
	pools ports.PoolReporter
}

func (poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolInUse, poolIdle, poolOpen, poolMax, poolWaits, poolWaitTime, poolAcquires, poolAcquireTime} {
		ch <- d
	}
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range p.pools.PoolStats() {
		gauge := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, st.Pool)
		}
		counter := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, st.Pool)
		}
		gauge(poolInUse, float64(st.InUse))
		gauge(poolIdle, float64(st.Idle))
		gauge(poolOpen, float64(st.Open))
		gauge(poolMax, float64(st.Max))
		counter(poolWaits, float64(st.Waits))
		counter(poolWaitTime, st.WaitTime.Seconds())
		if st.CountsAcquires {
			counter(poolAcquires, float64(st.Acquires))
			counter(poolAcquireTime, st.AcquireTime.Seconds())
		}
	}
}

// Descriptions of the series of reads that may go to a standby.
var (
	storeReads = prometheus.NewDesc("store_reads_total",
		"Reads of posts and tags outside transactions, by the database they were sent to (primary or standby).", []string{"target"}, nil)
	standbyUsable = prometheus.NewDesc("store_standby_usable",
		"1 when anonymous reads go to the standby, 0 while it is unreachable or lags more than the limit.", nil, nil)
	standbyLag = prometheus.NewDesc("store_standby_lag_seconds",
		"How far the standby's replay was behind the primary at its last check; NaN when it could not be measured.", nil, nil)
)

// readCollector reads where the store's reads went, and its standby's
// state, at scrape time.
type readCollector struct {
	reads ports.ReadReporter
}

func (readCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{storeReads, standbyUsable, standbyLag} {
		ch <- d
	}
}

func (r readCollector) Collect(ch chan<- prometheus.Metric) {
	st := r.reads.ReadStats()
	ch <- prometheus.MustNewConstMetric(storeReads, prometheus.CounterValue, float64(st.Primary), "primary")
	ch <- prometheus.MustNewConstMetric(storeReads, prometheus.CounterValue, float64(st.Standby), "standby")
	if !st.HasStandby {
		return
	}
	usable, lag := 0.0, math.NaN()
	if st.Usable {
		usable = 1
	}
	if st.LagKnown {
		lag = st.Lag.Seconds()
	}
	ch <- prometheus.MustNewConstMetric(standbyUsable, prometheus.GaugeValue, usable)
	ch <- prometheus.MustNewConstMetric(standbyLag, prometheus.GaugeValue, lag)
}

// Descriptions of the outboxes' backlog, which every replica reads alike
// from the shared store.
var (
	mailPending = prometheus.NewDesc("inkwell_mail_outbox_pending",
		"Mails in the outbox still to be sent: due, waiting for a retry or being sent.", nil, nil)
	deliveriesPending = prometheus.NewDesc("inkwell_webhook_deliveries_pending",
		"Webhook deliveries still to be made: due, waiting for a retry or being sent.", nil, nil)
)

// backlogScrapeTimeout bounds the store's counts during a scrape, so that
// a slow store leaves them out rather than hold the scrape.
const backlogScrapeTimeout = 2 * time.Second

// backlogCollector counts the pending mails and deliveries at scrape time.
type backlogCollector struct {
	backlog ports.BacklogReporter
}

func (backlogCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- mailPending
	ch <- deliveriesPending
}

// Collect sends nothing when the store cannot count: an absent series says
// "unknown", where a zero would say "nothing waits".
func (b backlogCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), backlogScrapeTimeout)
	defer cancel()
	n, err := b.backlog.Backlog(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(mailPending, prometheus.GaugeValue, float64(n.Mails))
	ch <- prometheus.MustNewConstMetric(deliveriesPending, prometheus.GaugeValue, float64(n.Deliveries))
}

// registerCache adds the series of the cache of anonymous reads.
func (m *metrics) registerCache(stats func() respcache.Stats) {
	counter := func(name, help string, value func(respcache.Stats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(value(stats())) })
	}
	m.registry.MustRegister(
		counter("http_cache_hits_total", "GETs of cached routes answered from this replica's cache.", func(s respcache.Stats) int64 { return s.Hits }),
		counter("http_cache_misses_total", "GETs of cached routes without a credential that the route answered.", func(s respcache.Stats) int64 { return s.Misses }),
		counter("http_cache_bypasses_total", "GETs of cached routes with a credential, never served from the cache.", func(s respcache.Stats) int64 { return s.Bypasses }),
		counter("http_cache_tags_evicted_total", "Tags evicted from this replica's cache.", func(s respcache.Stats) int64 { return s.TagsEvicted }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "http_cache_bytes", Help: "Bytes the cache of anonymous reads holds (HTTP_CACHE_MAX_BYTES bounds them)."},
			func() float64 { return float64(stats().Bytes) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "http_cache_entries", Help: "Answers the cache of anonymous reads holds."},
			func() float64 { return float64(stats().Entries) }),
	)
}
