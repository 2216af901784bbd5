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
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/andybalholm/brotli"
)

// Module is the engine and its loader, ready to serve.
type Module struct {
	WASM     []byte
	WASMGzip []byte // the same, compressed once for the browsers that accept gzip (level 9)
	// WASMBrotli is the same in brotli at its highest level (28 % smaller than gzip): a release's is compressed
	// at go generate time; a checkout's is nil until WithBrotli (half a minute of one core) has made it.
	WASMBrotli []byte
	Exec       []byte // wasm_exec.js
	// Hash names this build in the files' addresses, so that browsers may keep them for good.
	Hash string
}

// New makes a module of the engine's bytes and its loader's, compressing the engine in gzip (a second); its
// brotli is left to WithBrotli.
func New(wasm, execJS []byte) (*Module, error) {
	return NewCompressed(wasm, nil, nil, execJS)
}

// NewCompressed makes a module of the engine, the engine compressed (gzip, brotli; nil: gzip is made here and
// brotli is left to WithBrotli) and its loader. A release gives all three as go generate wrote them, so that it
// starts at once.
func NewCompressed(wasm, gz, br, execJS []byte) (*Module, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	if gz == nil {
		gz = GzipBest(wasm)
	} else if len(gz) < 2 || gz[0] != 0x1f || gz[1] != 0x8b {
		return nil, errors.New("the engine's gzip is not gzip")
	}
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(wasm))) // where the engine ends and the loader begins
	h.Write(n[:])
	h.Write(wasm)
	h.Write(execJS)
	return &Module{WASM: wasm, WASMGzip: gz, WASMBrotli: br, Exec: execJS, Hash: hex.EncodeToString(h.Sum(nil))[:16]}, nil
}

// GzipBest is b in gzip at its highest level (the site's static files use it too).
func GzipBest(b []byte) []byte {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

// BrotliBest is b in brotli at its highest level (11) with its largest standard window (16 MB, which browsers
// decode); the site's static files use it too.
func BrotliBest(b []byte) []byte {
	var z bytes.Buffer
	w := brotli.NewWriterOptions(&z, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	w.Write(b)
	w.Close()
	return z.Bytes()
}

// WithBrotli returns the module with its engine in brotli too (m itself if it has it). Compressing takes half a
// minute of one core on a slow machine, so the result is kept in the user's cache folder
// (mafiaclub/engine-HASH.wasm.br), and a later start of the same build reads it back, checked against the
// engine, in milliseconds.
func (m *Module) WithBrotli() *Module {
	if m.WASMBrotli != nil {
		return m
	}
	var cached string
	if dir, err := os.UserCacheDir(); err == nil {
		cached = filepath.Join(dir, "mafiaclub", "engine-"+m.Hash+".wasm.br")
		if br, err := os.ReadFile(cached); err == nil {
			if plain, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); err == nil && bytes.Equal(plain, m.WASM) {
				c := *m
				c.WASMBrotli = br
				return &c
			}
		}
	}
	c := *m
	c.WASMBrotli = BrotliBest(m.WASM)
	if cached != "" && os.MkdirAll(filepath.Dir(cached), 0o755) == nil {
		if f, err := os.CreateTemp(filepath.Dir(cached), "engine-*.tmp"); err == nil {
			_, werr := f.Write(c.WASMBrotli)
			if cerr := f.Close(); werr == nil && cerr == nil {
				werr = os.Rename(f.Name(), cached)
			}
			if werr != nil {
				os.Remove(f.Name())
			}
		}
	}
	return &c
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

// Generate writes the engine, the engine compressed (engine.wasm.gz, engine.wasm.br, at their highest levels:
// a release starts without compressing anything) and its loader into dir (dist/ for a release build).
func Generate(ctx context.Context, root, dir string) error {
	wasm, execJS, err := compile(ctx, root)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range map[string][]byte{
		"engine.wasm":    wasm,
		"engine.wasm.gz": GzipBest(wasm),
		"engine.wasm.br": BrotliBest(wasm),
		"wasm_exec.js":   execJS,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
