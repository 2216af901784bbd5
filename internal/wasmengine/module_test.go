package wasmengine

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const header = "\x00asm\x01\x00\x00\x00"

func TestNewRefusesWhatIsNotWebAssembly(t *testing.T) {
	for name, b := range map[string]string{
		"nothing":           "",
		"a short header":    "\x00asm",
		"text":              "<html>not an engine</html>",
		"a gzipped module":  "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff",
		"an ELF executable": "\x7fELF\x02\x01\x01\x00\x00\x00",
	} {
		if m, err := New([]byte(b), []byte("// loader")); err == nil || m != nil {
			t.Errorf("%s: accepted as a module", name)
		}
	}
}

var hex16 = regexp.MustCompile(`^[0-9a-f]{16}$`)

// TestNewModule: the compressed copy is the module, and the hash that names the files in their addresses (kept by
// browsers for good) changes with either file, and only with them.
func TestNewModule(t *testing.T) {
	wasm := []byte(header + strings.Repeat("\x01engine body", 100))
	js := []byte("// the loader\n")
	m, err := New(wasm, js)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.WASM, wasm) || !bytes.Equal(m.Exec, js) {
		t.Error("the module does not keep the files as given")
	}
	zr, err := gzip.NewReader(bytes.NewReader(m.WASMGzip))
	if err != nil {
		t.Fatalf("WASMGzip is not gzip: %v", err)
	}
	if b, err := io.ReadAll(zr); err != nil || !bytes.Equal(b, wasm) {
		t.Errorf("WASMGzip gunzips to %d bytes (%v), want the module's %d", len(b), err, len(wasm))
	}
	if len(m.WASMGzip) >= len(wasm) {
		t.Errorf("WASMGzip is %d bytes, the module %d: not compressed", len(m.WASMGzip), len(wasm))
	}
	if !hex16.MatchString(m.Hash) {
		t.Errorf("hash %q, want 16 hex characters", m.Hash)
	}
	same, _ := New(append([]byte(nil), wasm...), append([]byte(nil), js...))
	if same.Hash != m.Hash {
		t.Errorf("the same files give hashes %s and %s", m.Hash, same.Hash)
	}
	for name, files := range map[string][2][]byte{
		"another engine":                 {append(append([]byte(nil), wasm...), 0), js},
		"another loader":                 {wasm, []byte("// the loader, changed\n")},
		"a byte moved from one to other": {wasm[:len(wasm)-1], append([]byte{wasm[len(wasm)-1]}, js...)},
	} {
		other, err := New(files[0], files[1])
		if err != nil {
			t.Fatal(err)
		}
		if other.Hash == m.Hash {
			t.Errorf("%s: the hash stays %s, so browsers would keep the old files", name, m.Hash)
		}
	}
}

// TestBuildReproducible builds the engine from this checkout and from a copy of its sources elsewhere (no .git):
// a release build is the same bytes wherever it is made, so its hash names it.
func TestBuildReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, err := moduleRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(m.WASM, []byte("\x00asm")) {
		t.Fatalf("the build starts %q, not a WebAssembly module", m.WASM[:min(8, len(m.WASM))])
	}
	if !bytes.Contains(m.Exec, []byte("globalThis.Go")) {
		t.Errorf("wasm_exec.js does not define Go's loader: %.100q", m.Exec)
	}
	again, err := Build(ctx, copySources(t, ctx, root))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.WASM, m.WASM) || again.Hash != m.Hash {
		t.Errorf("two builds of the same sources differ: %d and %d bytes, hashes %s and %s", len(m.WASM), len(again.WASM), m.Hash, again.Hash)
	}
}

// copySources copies go.mod, go.sum and the packages of this module that cmd/engine is built from into a new
// folder.
func copySources(t *testing.T, ctx context.Context, root string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", "./cmd/engine")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dst := t.TempDir()
	cp := func(rel string) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cp("go.mod")
	cp("go.sum")
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() && !strings.HasSuffix(e.Name(), "_test.go") {
				cp(filepath.Join(rel, e.Name()))
			}
		}
	}
	return dst
}
