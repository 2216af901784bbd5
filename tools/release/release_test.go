package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"

	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	when    = time.Date(2026, 5, 4, 3, 2, 1, 0, time.UTC)
	fakeELF = append([]byte("\x7fELF"), bytes.Repeat([]byte("a program, not really\n"), 200)...)
)

// entry is one entry of a tar archive as read back.
type entry struct {
	hdr  *tar.Header
	data []byte
}

func readTarGz(t *testing.T, b []byte) []entry {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip's header names %q and dates %v: the same files would give other bytes", zr.Name, zr.ModTime)
	}
	var out []entry
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("tar: %v", err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, entry{h, data})
	}
}

// TestTarGz: the archive holds the files under one folder, in order, owned by root with their modes and the given
// date, and the same files give the same bytes (a date or a byte changed gives others).
func TestTarGz(t *testing.T) {
	files := []file{{"mafiaclub", 0o755, fakeELF}, {"README.md", 0o644, []byte("# mafiaclub\n")}, {"mafiaclub.service", 0o644, []byte("[Unit]\n")}}
	write := func(files []file, mtime time.Time) []byte {
		var b bytes.Buffer
		if err := writeTarGz(&b, "mafiaclub_1.2.3_linux_arm64", files, mtime); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a := write(files, when)
	got := readTarGz(t, a)
	want := []string{"mafiaclub_1.2.3_linux_arm64/", "mafiaclub_1.2.3_linux_arm64/mafiaclub", "mafiaclub_1.2.3_linux_arm64/README.md", "mafiaclub_1.2.3_linux_arm64/mafiaclub.service"}
	var names []string
	for _, e := range got {
		names = append(names, e.hdr.Name)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("entries %q, want %q", names, want)
	}
	for i, e := range got {
		h := e.hdr
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "root" || h.Gname != "root" || !h.ModTime.Equal(when) {
			t.Errorf("%s: owner %d:%d %s:%s, date %v; want root's and %v", h.Name, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime, when)
		}
		if i == 0 {
			if h.Typeflag != tar.TypeDir || h.Mode != 0o755 {
				t.Errorf("%s: type %c mode %o, want a folder 0755", h.Name, h.Typeflag, h.Mode)
			}
			continue
		}
		f := files[i-1]
		if h.Typeflag != tar.TypeReg || h.Mode != f.Mode || !bytes.Equal(e.data, f.Data) {
			t.Errorf("%s: type %c mode %o, %d bytes; want a file %o of %d bytes as given", h.Name, h.Typeflag, h.Mode, len(e.data), f.Mode, len(f.Data))
		}
	}
	if b := write(files, when); !bytes.Equal(a, b) {
		t.Error("the same files give other bytes")
	}
	if b := write(files, when.Add(time.Second)); bytes.Equal(a, b) {
		t.Error("another date gives the same bytes: the date is not in the archive")
	}
	other := slices.Clone(files)
	other[0] = file{"mafiaclub", 0o755, append(slices.Clone(fakeELF), 0)}
	if b := write(other, when); bytes.Equal(a, b) {
		t.Error("another program gives the same bytes")
	}
}

// arMembers reads a Debian package's ar archive: each member's name and bytes, in order.
func arMembers(t *testing.T, b []byte) (names []string, data map[string][]byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("!<arch>\n")) {
		t.Fatalf("not an ar archive: %q", b[:min(8, len(b))])
	}
	data = map[string][]byte{}
	for rest := b[8:]; len(rest) > 0; {
		if len(rest) < 60 {
			t.Fatalf("a short ar header: %q", rest)
		}
		h := rest[:60]
		name := strings.TrimSuffix(strings.TrimSpace(string(h[:16])), "/")
		size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
		if err != nil || string(h[58:60]) != "`\n" || 60+size > len(rest) {
			t.Fatalf("a bad ar header: %q", h)
		}
		if mtime := strings.TrimSpace(string(h[16:28])); mtime != strconv.FormatInt(when.Unix(), 10) {
			t.Errorf("ar member %s is dated %s, want %d", name, mtime, when.Unix())
		}
		names = append(names, name)
		data[name] = rest[60 : 60+size]
		rest = rest[60+size+size%2:]
	}
	return names, data
}

func packagingDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "packaging"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDeb: the Debian package holds the program, its unit, the settings file as a conffile and the README, owned
// by root with fixed modes and dates, runs the maintainer scripts of packaging/, depends on nothing, and writes a
// pre-release's version so that it sorts before the release; the same input gives the same bytes.
func TestDeb(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "mafiaclub")
	if err := os.WriteFile(bin, fakeELF, 0o700); err != nil { // the package's mode is its own, not the file's
		t.Fatal(err)
	}
	readme := filepath.Join("..", "..", "README.md")
	in := debInput{Version: "1.2.3-rc.1", Arch: "arm64", Binary: bin, Packaging: packagingDir(t), Readme: readme, MTime: when}
	write := func(in debInput) []byte {
		var b bytes.Buffer
		if err := writeDeb(&b, in); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	pkg := write(in)
	names, members := arMembers(t, pkg)
	if !slices.Equal(names, []string{"debian-binary", "control.tar.gz", "data.tar.gz"}) {
		t.Fatalf("ar members %q", names)
	}
	if string(members["debian-binary"]) != "2.0\n" {
		t.Errorf("debian-binary is %q", members["debian-binary"])
	}

	control := map[string]entry{}
	for _, e := range readTarGz(t, members["control.tar.gz"]) {
		control[strings.TrimPrefix(e.hdr.Name, "./")] = e
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(control["control"].data), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, " ") {
			fields[k] = v
		}
	}
	for k, v := range map[string]string{"Package": "mafiaclub", "Version": "1.2.3~rc.1", "Architecture": "arm64"} {
		if fields[k] != v {
			t.Errorf("control: %s is %q, want %q", k, fields[k], v)
		}
	}
	for _, k := range []string{"Depends", "Pre-Depends"} {
		if v, ok := fields[k]; ok {
			t.Errorf("control: %s: %s; the package needs nothing beyond Debian's essential packages", k, v)
		}
	}
	if got := strings.TrimSpace(string(control["conffiles"].data)); got != debSettings {
		t.Errorf("conffiles: %q, want %s (an upgrade keeps the admin's settings)", got, debSettings)
	}
	for _, s := range []string{"postinst", "prerm", "postrm"} {
		want, err := os.ReadFile(filepath.Join(in.Packaging, s))
		if err != nil {
			t.Fatal(err)
		}
		e, ok := control[s]
		if !ok || !bytes.Equal(e.data, want) || e.hdr.Mode&0o111 == 0 {
			t.Errorf("control: %s is missing, not packaging/%s or not executable (mode %o)", s, s, e.hdr.Mode)
		}
	}

	data := map[string]entry{}
	for _, e := range readTarGz(t, members["data.tar.gz"]) {
		h := e.hdr
		if h.Uname != "root" || h.Gname != "root" || !h.ModTime.Equal(when) {
			t.Errorf("%s: owner %s:%s, date %v; want root's and %v", h.Name, h.Uname, h.Gname, h.ModTime, when)
		}
		if h.Typeflag == tar.TypeReg {
			data["/"+strings.TrimPrefix(h.Name, "./")] = e
		}
	}
	readmeData, _ := os.ReadFile(readme)
	unit, _ := os.ReadFile(filepath.Join(in.Packaging, "mafiaclub.service"))
	settings, _ := os.ReadFile(filepath.Join(in.Packaging, "mafiaclub.default"))
	want := map[string]struct {
		mode int64
		data []byte
	}{debBinary: {0o755, fakeELF}, debUnit: {0o644, unit}, debSettings: {0o644, settings}, debReadme: {0o644, readmeData}}
	for path, w := range want {
		e, ok := data[path]
		if !ok {
			t.Errorf("the package has no %s", path)
			continue
		}
		if e.hdr.Mode != w.mode || !bytes.Equal(e.data, w.data) {
			t.Errorf("%s: mode %o, %d bytes; want %o and its %d bytes", path, e.hdr.Mode, len(e.data), w.mode, len(w.data))
		}
	}
	if len(data) != len(want) {
		var paths []string
		for p := range data {
			paths = append(paths, p)
		}
		t.Errorf("the package's files are %q, want only %d", paths, len(want))
	}

	if again := write(in); !bytes.Equal(again, pkg) {
		t.Error("the same input gives another package")
	}
	later := in
	later.MTime = when.Add(time.Hour)
	if b := write(later); bytes.Equal(b, pkg) {
		t.Error("another date gives the same package: the date is not in it")
	}
	if _, err := exec.LookPath("dpkg-deb"); err == nil { // Debian's own reading of it, where there is one
		path := filepath.Join(dir, "mafiaclub.deb")
		os.WriteFile(path, pkg, 0o644)
		if out, err := exec.Command("dpkg-deb", "--field", path, "Version").CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "1.2.3~rc.1" {
			t.Errorf("dpkg-deb --field Version: %q %v", out, err)
		}
	}
}

// TestUnitAndSettings: the unit runs the program where the package puts it, as the user postinst makes, reads the
// settings file the package installs, and may write only the data folder; every variable of the settings file
// (set or commented out) is one the program reads.
func TestUnitAndSettings(t *testing.T) {
	dir := packagingDir(t)
	unit, err := os.ReadFile(filepath.Join(dir, "mafiaclub.service"))
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string][]string{}
	for _, line := range strings.Split(string(unit), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			keys[k] = append(keys[k], v)
		}
	}
	for k, v := range map[string]string{"User": "mafiaclub", "Group": "mafiaclub", "ExecStart": debBinary,
		"WorkingDirectory": "/var/lib/mafiaclub", "EnvironmentFile": "-" + debSettings, "ReadWritePaths": "/var/lib/mafiaclub",
		"ProtectSystem": "strict", "NoNewPrivileges": "yes", "PrivateTmp": "yes", "KillSignal": "SIGTERM", "Restart": "on-failure",
		"WantedBy": "multi-user.target"} {
		if !slices.Contains(keys[k], v) {
			t.Errorf("the unit's %s is %q, want %q", k, keys[k], v)
		}
	}
	sources, err := filepath.Glob(filepath.Join("..", "..", "cmd", "mafiaclub", "*.go"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("the program's sources: %v", err)
	}
	var serve []byte // the program's sources, where it reads its variables
	for _, src := range sources {
		if !strings.HasSuffix(src, "_test.go") {
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			serve = append(serve, b...)
		}
	}
	settings, err := os.ReadFile(filepath.Join(dir, "mafiaclub.default"))
	if err != nil {
		t.Fatal(err)
	}
	assignment := regexp.MustCompile(`^#?(MAFIACLUB_[A-Z_]+)=(.*)$`)
	set := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(settings))
	for sc.Scan() {
		m := assignment.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if !bytes.Contains(serve, []byte(`"`+m[1]+`"`)) {
			t.Errorf("the settings file sets %s, which the program does not read", m[1])
		}
		if strings.ContainsAny(m[2], `"' `) {
			t.Errorf("%s=%s: no quotes or spaces (systemd and the README's env $(...) read it as is)", m[1], m[2])
		}
		if !strings.HasPrefix(sc.Text(), "#") {
			set[m[1]] = m[2]
		}
	}
	if set["MAFIACLUB_DATA"] != "/var/lib/mafiaclub" {
		t.Errorf("the settings file's MAFIACLUB_DATA is %q, want the folder postinst makes", set["MAFIACLUB_DATA"])
	}
}

// TestMaintainerScripts: the scripts are POSIX sh that the shell reads (dpkg runs them with /bin/sh).
func TestMaintainerScripts(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, s := range []string{"postinst", "prerm", "postrm"} {
		path := filepath.Join(packagingDir(t), s)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("#!/bin/sh\n")) {
			t.Errorf("%s does not start with #!/bin/sh", s)
		}
		if out, err := exec.Command(sh, "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s: sh -n: %v: %s", s, err, out)
		}
	}
}

// TestChecksums: SHA256SUMS is what sha256sum writes, and sha256sum -c accepts it.
func TestChecksums(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.deb"), []byte("abc"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.tar.gz"), nil, 0o644)
	got, err := checksums(dir, []string{"a.deb", "b.tar.gz"})
	if err != nil {
		t.Fatal(err)
	}
	want := "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.deb\n" +
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  b.tar.gz\n"
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, want)
	}
	if _, err := exec.LookPath("sha256sum"); err == nil {
		os.WriteFile(filepath.Join(dir, "SHA256SUMS"), got, 0o644)
		cmd := exec.Command("sha256sum", "-c", "SHA256SUMS")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum -c: %v: %s", err, out)
		}
	}
}

// TestFlags: a version that is not MAJOR.MINOR.PATCH[-PRERELEASE], or an architecture not released, is refused
// before anything is built.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{{}, {"-version", "v1.2.3"}, {"-version", "1.2"}, {"-version", "1.2.3_rc"},
		{"-version", "01.2.3"}, {"-version", "1.2.3", "-arch", "386"}, {"-version", "1.2.3", "-arch", ","}} {
		var stderr bytes.Buffer
		if code := run(args, io.Discard, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%q: exit %d, %q; want 2 and the reason", args, code, stderr.String())
		}
	}
	for _, v := range []string{"1.2.3", "0.0.0-ci", "10.20.30-rc.1"} {
		if !semver.MatchString(v) {
			t.Errorf("%s is refused", v)
		}
	}
}
