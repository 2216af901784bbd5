package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// requestInfo is what the inner handlers learn about a request for its log line and metrics: the route that
// matched and the account that made it.
type requestInfo struct {
	id     string
	route  string
	userID int64
}

const infoKey ctxKey = 2

// statusRecorder remembers the status a handler answered with.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushing a live stream, its deadlines).
func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func newRequestID() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "-"
	}
	return hex.EncodeToString(b)
}

// observe logs one line per request (its id, method, path without the query, route, status, time, and the
// account's id: never a password, a cookie or a session token) and counts it in the metrics. The request id is
// answered in X-Request-Id, so a person reporting a problem can quote it.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: newRequestID()}
		w.Header().Set("X-Request-Id", info.id)
		rec := &statusRecorder{ResponseWriter: w}
		r = r.WithContext(context.WithValue(r.Context(), infoKey, info))
		defer func() {
			elapsed := time.Since(start)
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			route := info.route
			if route == "" {
				route = "other" // refused before routing (cross-site, body too large)
			}
			s.metrics.request(route, r.Method, status, elapsed)
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			s.Log.LogAttrs(r.Context(), level, "request", slog.String("id", info.id), slog.String("method", r.Method),
				slog.String("path", r.URL.Path), slog.String("route", route), slog.Int("status", status),
				slog.Duration("time", elapsed), slog.Int64("user", info.userID))
		}()
		next.ServeHTTP(rec, r)
	})
}

// routed notes the route that matched (the mux's pattern) and the account, once the session is known: it wraps the
// mux itself, which sets the pattern on the request it is given.
func (s *Server) routed(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		if info, ok := r.Context().Value(infoKey).(*requestInfo); ok {
			info.route = r.Pattern
			if i := strings.IndexByte(info.route, ' '); i >= 0 {
				info.route = info.route[i+1:] // the method is a label of its own
			}
			if u := currentUser(r); u != nil {
				info.userID = u.ID
			}
		}
	})
}
