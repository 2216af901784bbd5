// Package wasmengine provides the host page's engine compiled to WebAssembly (cmd/engine) with the loader Go ships
// for it (wasm_exec.js, which must match the toolchain that built the module).
//
// A release binary carries both, built by `go generate ./internal/wasmengine` and embedded with the build tag
// embedengine (see the README). A program run from a checkout (`go run ./cmd/mafiaclub`) builds them at start-up
// with the Go toolchain at hand, so a newcomer needs no extra step and nothing generated is committed. Without
// either, the host page works by plain form posts.
package wasmengine

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Module is the engine and its loader, ready to serve.
type Module struct {
	WASM     []byte
	WASMGzip []byte // the same, compressed once for the browsers that accept gzip
	Exec     []byte // wasm_exec.js
	// Hash names this build in the files' addresses, so that browsers may keep them for good.
	Hash string
}

// New makes a module of the engine's bytes and its loader's.
func New(wasm, execJS []byte) (*Module, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(wasm)
	w.Close()
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(wasm))) // where the engine ends and the loader begins
	h.Write(n[:])
	h.Write(wasm)
	h.Write(execJS)
	return &Module{WASM: wasm, WASMGzip: z.Bytes(), Exec: execJS, Hash: hex.EncodeToString(h.Sum(nil))[:16]}, nil
}

// embedded is set by embed.go in a release build.
var embedded func() (*Module, error)

// Embedded reports whether this binary carries the engine (a release build, with the tag embedengine).
func Embedded() bool { return embedded != nil }

// Find returns the embedded engine, or else builds it from the checkout the program runs in.
func Find(ctx context.Context) (*Module, error) {
	if embedded != nil {
		return embedded()
	}
	root, err := moduleRoot(ctx)
	if err != nil {
		return nil, err
	}
	return Build(ctx, root)
}

// moduleRoot is the folder of mafiaclub's go.mod, as the go command finds it from the working directory.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("no Go toolchain to build the engine with (%v), and this binary does not carry it", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not run from a mafiaclub checkout, and this binary does not carry the engine")
	}
	data, err := os.ReadFile(gomod)
	if err != nil || !bytes.HasPrefix(data, []byte("module mafiaclub\n")) {
		return "", fmt.Errorf("%s is not mafiaclub's", gomod)
	}
	return filepath.Dir(gomod), nil
}

// Build compiles the engine in the checkout at root with the Go toolchain at hand (its build cache makes a rebuild
// of unchanged sources quick), and reads that toolchain's loader.
func Build(ctx context.Context, root string) (*Module, error) {
	wasm, execJS, err := compile(ctx, root)
	if err != nil {
		return nil, err
	}
	return New(wasm, execJS)
}

// compile builds cmd/engine for the browser. The flags make the build reproducible: the same sources and
// toolchain give the same bytes.
func compile(ctx context.Context, root string) (wasm, execJS []byte, err error) {
	dir, err := os.MkdirTemp("", "mafiaclub-engine-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "engine.wasm")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "./cmd/engine")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("building the engine: %v: %s", err, bytes.TrimSpace(msg))
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, err
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, nil, err
	}
	execJS, err = os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return nil, nil, fmt.Errorf("the toolchain's wasm_exec.js: %w", err)
	}
	return wasm, execJS, nil
}

// Generate writes the engine and its loader into dir (dist/ for a release build).
func Generate(ctx context.Context, root, dir string) error {
	wasm, execJS, err := compile(ctx, root)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "engine.wasm"), wasm, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644)
}
