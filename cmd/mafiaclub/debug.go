package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// startDebug serves Go's profiles (net/http/pprof: CPU, heap, goroutines, blocking, the execution trace) at addr,
// a loopback address only: the profiles carry no access control, and a goroutine dump names the requests in
// flight. It is for the one who runs the server, to see what a slow server waits on (docs/federation.md).
func startDebug(addr string) (*http.Server, net.Addr, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("-debug-addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, nil, fmt.Errorf("-debug-addr %q: only a loopback address (127.0.0.1:PORT, [::1]:PORT or localhost:PORT); the profiles have no access control", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("-debug-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // the named profiles too: goroutine, heap, block, mutex, allocs
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // ends with the server's Close
	return srv, ln.Addr(), nil
}
