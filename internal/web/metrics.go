package web

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the site's Prometheus metrics, in a registry of its own (two sites in one test process never share
// one), written by the Prometheus Go client.
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	actions   *prometheus.HistogramVec
	internal  prometheus.Counter
	diskFull  prometheus.Counter
	throttled *prometheus.CounterVec
	streams   prometheus.Gauge
}

func newMetrics(liveGames func() float64) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafiaclub_http_requests_total",
		Help: "HTTP requests by route (the pattern that matched), method and status."}, []string{"route", "method", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "mafiaclub_http_request_duration_seconds",
		Help: "Time to answer an HTTP request, by route.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)}, []string{"route"})
	m.actions = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "mafiaclub_host_action_duration_seconds",
		Help: "Time from a host's action to its durable answer (act, undo, save, reopen).", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)},
		[]string{"action"})
	m.internal = prometheus.NewCounter(prometheus.CounterOpts{Name: "mafiaclub_internal_errors_total",
		Help: "Requests that failed on our side: database errors and the like (each is logged with its cause)."})
	m.diskFull = prometheus.NewCounter(prometheus.CounterOpts{Name: "mafiaclub_disk_full_total",
		Help: "Requests refused because the server's disk was full (answered 507; nothing was recorded)."})
	m.throttled = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mafiaclub_throttled_total",
		Help: "Logins, sign-ups and password changes refused: too_many (the throttle) or busy (all password-hashing slots taken)."},
		[]string{"why"})
	m.streams = prometheus.NewGauge(prometheus.GaugeOpts{Name: "mafiaclub_sse_clients", Help: "Open server-sent event streams."})
	live := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mafiaclub_live_games", Help: "Games being played (not saved)."}, liveGames)
	m.reg.MustRegister(m.requests, m.latency, m.actions, m.internal, m.diskFull, m.throttled, m.streams, live,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) request(route, method string, status int, elapsed time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(elapsed.Seconds())
	if status == http.StatusInsufficientStorage {
		m.diskFull.Inc()
	}
	if strings.HasPrefix(route, "/games/{game}/") && method == http.MethodPost {
		m.actions.WithLabelValues(route[len("/games/{game}/"):]).Observe(elapsed.Seconds())
	}
}

// MetricsToken, when not empty, lets a request with "Authorization: Bearer TOKEN" read /metrics from anywhere;
// without it only a request from this machine that came through no proxy may.
func (s *Server) metricsHandler() http.Handler {
	h := promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.metricsAllowed(r) {
			http.Error(w, "metrics are for this machine or a configured token", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) metricsAllowed(r *http.Request) bool {
	if tok := s.MetricsToken; tok != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if ok && subtle.ConstantTimeCompare([]byte(got), []byte(tok)) == 1 {
			return true
		}
	}
	// a reverse proxy on this machine makes every visitor look local: a forwarded request is not
	if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" || r.Header.Get("X-Real-Ip") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func liveGamesGauge(s *Server) func() float64 {
	return func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := s.svc.Games.CountLive(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	}
}
