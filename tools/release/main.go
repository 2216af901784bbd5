// Command release builds mafiaclub's release from the checkout it is run in: the program for linux/amd64 and
// linux/arm64 (a club's Raspberry Pi) carrying the host page's engine, each as a .tar.gz and a Debian package, and
// SHA256SUMS over them. Run it from anywhere in the checkout:
//
//	go run -C tools/release . -version 1.2.3
//
// It writes dist/ at the checkout's root (-out: another folder; a relative one is taken from the checkout's root).
// The same sources, Go toolchain and version give the same bytes: files carry the time of the last commit (or
// SOURCE_DATE_EPOCH), root as owner, fixed modes, and the builds are -trimpath without VCS stamps.
//
// It is a module of its own (tools/release/go.mod) so that nFPM, which makes the Debian packages, and its forty-odd
// dependencies stay out of the program's go.mod and out of tools/go.mod, which pins staticcheck alone.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// semver is the version a release may have: MAJOR.MINOR.PATCH and an optional pre-release (0.0.0-ci), which the
// Debian package writes 0.0.0~ci so that it sorts before 0.0.0.
var semver = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z]+(\.[0-9A-Za-z]+)*)?$`)

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the release's version, MAJOR.MINOR.PATCH with an optional -PRERELEASE (required)")
	out := fs.String("out", "dist", "the folder the release is written to; a relative one is taken from the checkout's root")
	arches := fs.String("arch", "amd64,arm64", "the Linux architectures to build, comma-separated (Go's names)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if !semver.MatchString(*version) {
		fmt.Fprintf(stderr, "release: -version is MAJOR.MINOR.PATCH[-PRERELEASE] (1.2.3, 0.0.0-ci), not %q\n", *version)
		return 2
	}
	var archList []string
	for _, a := range strings.Split(*arches, ",") {
		if a = strings.TrimSpace(a); a != "" {
			if _, ok := debArch[a]; !ok {
				fmt.Fprintf(stderr, "release: -arch: %q is not one of amd64, arm64\n", a)
				return 2
			}
			archList = append(archList, a)
		}
	}
	if len(archList) == 0 {
		fmt.Fprintln(stderr, "release: -arch names no architecture")
		return 2
	}
	if err := release(context.Background(), *version, *out, archList, stdout); err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	return 0
}

// debArch is the Debian architecture of each Go architecture a release is built for.
var debArch = map[string]string{"amd64": "amd64", "arm64": "arm64"}

func release(ctx context.Context, version, out string, arches []string, stdout io.Writer) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := findRoot(wd)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	mtime, err := sourceDate(ctx, root)
	if err != nil {
		return err
	}
	if dirty, _ := git(ctx, root, "status", "--porcelain", "--untracked-files=no"); dirty != "" {
		fmt.Fprintln(stdout, "note: the checkout has uncommitted changes; they are built in")
	}
	goVersion, err := command(ctx, root, nil, "go", "env", "GOVERSION")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "mafiaclub %s with %s, files dated %s\n", version, goVersion, mtime.Format(time.RFC3339))

	// the host page's engine, embedded by the tag embedengine
	fmt.Fprintln(stdout, "go generate ./internal/wasmengine")
	if _, err := command(ctx, root, []string{"CGO_ENABLED=0"}, "go", "generate", "./internal/wasmengine"); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mafiaclub-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return err
	}
	pkg := filepath.Join(root, "packaging")
	var made []string
	for _, arch := range arches {
		bin := filepath.Join(tmp, arch, "mafiaclub")
		fmt.Fprintf(stdout, "go build linux/%s\n", arch)
		if err := build(ctx, root, arch, version, bin); err != nil {
			return err
		}
		if arch == runtime.GOARCH && runtime.GOOS == "linux" { // the one this machine runs: it carries the engine
			line, err := command(ctx, root, nil, bin, "version")
			if err != nil {
				return err
			}
			if !strings.Contains(line, "mafiaclub "+version+" ") || !strings.Contains(line, "carries the host page's engine") {
				return fmt.Errorf("the built program says %q: not version %s carrying the engine", line, version)
			}
		}
		binData, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		files := []file{{Name: "mafiaclub", Mode: 0o755, Data: binData}, {Name: "README.md", Mode: 0o644, Data: readme}}
		for _, extra := range []string{"LICENSE", "LICENSE.md", "COPYING"} { // none today
			if b, err := os.ReadFile(filepath.Join(root, extra)); err == nil {
				files = append(files, file{Name: extra, Mode: 0o644, Data: b})
			}
		}
		for _, name := range []string{"mafiaclub.service", "mafiaclub.default"} {
			b, err := os.ReadFile(filepath.Join(pkg, name))
			if err != nil {
				return err
			}
			files = append(files, file{Name: name, Mode: 0o644, Data: b})
		}
		tgz := fmt.Sprintf("mafiaclub_%s_linux_%s.tar.gz", version, arch)
		if err := writeFile(filepath.Join(out, tgz), func(w io.Writer) error {
			return writeTarGz(w, strings.TrimSuffix(tgz, ".tar.gz"), files, mtime)
		}); err != nil {
			return err
		}
		deb := fmt.Sprintf("mafiaclub_%s_%s.deb", version, debArch[arch])
		if err := writeFile(filepath.Join(out, deb), func(w io.Writer) error {
			return writeDeb(w, debInput{Version: version, Arch: debArch[arch], Binary: bin, Packaging: pkg,
				Readme: filepath.Join(root, "README.md"), MTime: mtime})
		}); err != nil {
			return err
		}
		made = append(made, tgz, deb)
	}
	slices.Sort(made)
	sums, err := checksums(out, made)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), sums, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s:\n%s", out, sums)
	return nil
}

// findRoot is the folder of mafiaclub's go.mod at or above dir.
func findRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module mafiaclub\n")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is not in a mafiaclub checkout (no go.mod of module mafiaclub above it)", dir)
		}
	}
}

// sourceDate is the time the release's files carry: SOURCE_DATE_EPOCH when set, else the last commit's.
func sourceDate(ctx context.Context, root string) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH is seconds since 1970, not %q", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	s, err := git(ctx, root, "log", "-1", "--format=%ct")
	if err != nil {
		return time.Time{}, fmt.Errorf("no SOURCE_DATE_EPOCH and no commit to date the release by: %w", err)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git log: %q is not a time", s)
	}
	return time.Unix(n, 0).UTC(), nil
}

// build compiles the program for linux/arch with the engine embedded and the version set.
func build(ctx context.Context, root, arch, version, out string) error {
	_, err := command(ctx, root, []string{"GOOS=linux", "GOARCH=" + arch, "CGO_ENABLED=0"},
		"go", "build", "-trimpath", "-buildvcs=false", "-tags", "embedengine",
		"-ldflags", "-s -w -X main.version="+version, "-o", out, "./cmd/mafiaclub")
	return err
}

func git(ctx context.Context, root string, args ...string) (string, error) {
	return command(ctx, root, nil, "git", args...)
}

// command runs a program in dir with the environment and extra variables, and returns its output trimmed; an error
// carries what it said.
func command(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return strings.TrimSpace(string(b)), nil
}

// writeFile writes a file through write, leaving none behind when write fails.
func writeFile(path string, write func(io.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	return write(f)
}

// checksums is SHA256SUMS over the files named in dir, as sha256sum writes it (sha256sum -c SHA256SUMS checks it).
func checksums(dir string, names []string) ([]byte, error) {
	var b bytes.Buffer
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		if strings.ContainsAny(name, "\\\n") {
			return nil, errors.New("a file name sha256sum would escape: " + name)
		}
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), name)
	}
	return b.Bytes(), nil
}
