package web_test

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/diskspace"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
	"mafiaclub/internal/web"
)

// smallDiskSite is the site on an SQLite database in a tmpfs of size bytes (as root), with the demo club, its log
// kept in logs, the data folder's room watched. The database is seeded by a store closed before the site's opens:
// SQLite removes the WAL at the last close, and the site's store starts a fresh one that each commit must grow (a
// WAL reused after a checkpoint has room of its own, and would take a few more commits on a full disk).
func smallDiskSite(t *testing.T, size int) (h *harness, dir string, logs *lockedBuffer) {
	t.Helper()
	dir = storetest.NeedSmallDisk(t, size)
	ctx := context.Background()
	path := filepath.Join(dir, "club.db")
	seed, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := club.SeedDemo(ctx, seed); err != nil {
		t.Fatal(err)
	}
	seed.Close()
	db, err := sqlstore.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	zone, _ := time.LoadLocation("America/Edmonton")
	site, err := web.New(club.NewServices(db, club.NewClock(zone, nil)))
	if err != nil {
		t.Fatal(err)
	}
	site.Cookies = web.CookieSecureNever
	logs = &lockedBuffer{}
	site.Log = slog.New(slog.NewTextHandler(io.MultiWriter(logs, testLog{t}), nil))
	wctx, stop := context.WithCancel(ctx)
	t.Cleanup(stop)
	site.WatchDisk(wctx, dir)
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return &harness{t: t, srv: srv, site: site, store: db}, dir, logs
}

// diskBanner is the admins' warning on a page, "" when it has none.
func diskBanner(body string) string {
	_, rest, ok := strings.Cut(body, `id="disk-low"`)
	if !ok {
		return ""
	}
	_, rest, _ = strings.Cut(rest, ">")
	text, _, _ := strings.Cut(rest, "</p>")
	return html.UnescapeString(text)
}

// TestDiskFullHostAction: with the server's disk full (a tmpfs filled to its last byte), a host's action is
// refused with 507 and the reason in the host's language, as JSON to the host page's script and as a page to a
// plain form; nothing is recorded, each refusal is logged (error, "disk is full", with SQLite's cause) and counted
// in mafiaclub_disk_full_total, and the admins' pages warn at once. Once room is made, the action the host page
// kept and sends again (its key unchanged) is recorded, and the warning goes at the next look (issue 23.5).
func TestDiskFullHostAction(t *testing.T) {
	h, dir, logs := smallDiskSite(t, 8<<20)
	cat := mustCatalog(t)
	host := h.login("host", "demo-host")
	h.post(host, "/lang", url.Values{"lang": {"en"}}) // the host's language is not the site's default
	admin := h.login("admin", "demo-admin")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Fatalf("an admin is warned on a disk with room: %s", b)
	}

	free := storetest.FillDisk(t, dir)
	defer free()
	path := fmt.Sprintf("/games/%d/act", id)
	form := url.Values{"version": {"0"}, "key": {"diskfull-action-1"}, "type": {"day"}}
	r, a := h.actJSON(host, path, form)
	if r.StatusCode != http.StatusInsufficientStorage || a.Code != string(club.NoSpace) || a.Error != cat.T("en", "error.no_space") {
		t.Fatalf("a host action on a full disk: %d %+v, want 507, %s and %q", r.StatusCode, a, club.NoSpace, cat.T("en", "error.no_space"))
	}
	if r.Header.Get("Retry-After") != "" {
		t.Errorf("507 with Retry-After %q: nothing changes until the admin frees space", r.Header.Get("Retry-After"))
	}
	plain := h.act(host, id, "type", "day")
	if plain.StatusCode != http.StatusInsufficientStorage || !strings.Contains(html.UnescapeString(errorOf(plain.Body)), cat.T("en", "error.no_space")) {
		t.Fatalf("a plain form's action on a full disk: %d %q", plain.StatusCode, errorOf(plain.Body))
	}
	if n, v := h.events(id), h.version(id); n != 0 || v != 0 {
		t.Fatalf("after the refusals the game has %d events at version %d, want none at 0", n, v)
	}
	if m := h.get(h.client(), "/metrics").Body; !strings.Contains(m, "\nmafiaclub_disk_full_total 2\n") {
		t.Errorf("the metrics do not count the 2 refusals:\n%s", grepLines(m, "disk_full"))
	}
	if got := strings.Count(logs.String(), `level=ERROR msg="the server's disk is full: nothing was recorded"`); got != 2 ||
		!strings.Contains(logs.String(), "database or disk is full") {
		t.Errorf("%d log lines say the disk is full (want 2, with SQLite's cause):\n%s", got, grepLines(logs.String(), "disk"))
	}
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b == "" {
		t.Error("after a refusal for a full disk the admins' pages do not warn")
	}
	if b := diskBanner(h.get(host, "/games").Body); b != "" {
		t.Errorf("a host is shown the admins' warning: %s", b)
	}

	free()
	r, a = h.actJSON(host, path, form)
	if r.StatusCode != http.StatusOK || a.version() != 1 || h.events(id) != 1 {
		t.Fatalf("the kept action sent again once room is made: %d %+v, %d events; want it recorded at version 1", r.StatusCode, a, h.events(id))
	}
	h.mustAct(host, id, "type", "speech", "seat", "1")
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b == "" {
		t.Error("the warning went before the next look at the disk")
	}
	web.CheckDisk(h.site)
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Errorf("the warning stays once room is made: %s", b)
	}
	if !strings.Contains(logs.String(), `msg="the data folder's disk has room again"`) {
		t.Errorf("the log does not say that the disk has room again:\n%s", grepLines(logs.String(), "disk"))
	}
}

// fakeDisk is a filesystem of a given size and room, for the admins' warning.
type fakeDisk struct {
	mu    sync.Mutex
	space diskspace.Space
	err   error
	looks int
}

func (d *fakeDisk) set(free, total uint64, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.space, d.err = diskspace.Space{Free: free, Total: total}, err
}

func (d *fakeDisk) stat(string) (diskspace.Space, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.looks++
	return d.space, d.err
}

// TestLowDiskWarning: admins see a warning on every page while the data folder's filesystem has less than 1 GiB
// left, or less than 5 % of it on a small one; hosts and visitors do not. The room is looked at once a minute,
// never by a page; the log warns once when the room falls under the threshold and says when it is back (issue
// 23.5). A site with no data folder to watch (PostgreSQL) warns of nothing.
func TestLowDiskWarning(t *testing.T) {
	if got := web.LowSpace(25 << 30); got != 1<<30 {
		t.Errorf("the threshold on a VPS's 25 GiB: %d, want 1 GiB", got)
	}
	if got := web.LowSpace(8 << 30); got != (8<<30)/20 {
		t.Errorf("the threshold on an 8 GiB SD card: %d, want 5 %%", got)
	}
	h := newHarness(t)
	var logs lockedBuffer
	h.site.Log = slog.New(slog.NewTextHandler(io.MultiWriter(&logs, testLog{t}), nil))
	cat := mustCatalog(t)
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	anon := h.client()
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Fatalf("a site with no data folder watched warns: %s", b)
	}

	disk := &fakeDisk{}
	disk.set(5<<30, 32<<30, nil)
	web.SetDiskStat(h.site, disk.stat)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	h.site.WatchDisk(ctx, "/var/lib/mafiaclub")
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Fatalf("5 GiB free of 32: warned %s", b)
	}

	disk.set(900<<20, 32<<30, nil)
	for range 3 {
		h.get(admin, "/admin/members")
		h.get(admin, "/admin/backups")
	}
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Errorf("a page looked at the disk itself: warned before the minute's look: %s", b)
	}
	if disk.looks != 1 {
		t.Errorf("the disk was looked at %d times, want once (pages use the last look)", disk.looks)
	}
	web.CheckDisk(h.site) // the minute's look
	want := cat.T("uk", "storage.low", "900 МБ", "32,0 ГБ", "1,0 ГБ")
	for _, path := range []string{"/admin/members", "/admin/backups", "/rating"} {
		if b := diskBanner(h.get(admin, path).Body); b != want {
			t.Errorf("900 MiB free of 32 GiB, an admin's %s: %q, want %q", path, b, want)
		}
	}
	if b := diskBanner(h.get(host, "/games").Body); b != "" {
		t.Errorf("a host is warned: %s", b)
	}
	if b := diskBanner(h.get(anon, "/rating").Body); b != "" {
		t.Errorf("a visitor is warned: %s", b)
	}
	h.post(admin, "/lang", url.Values{"lang": {"en"}})
	if b, want := diskBanner(h.get(admin, "/admin/backups").Body), cat.T("en", "storage.low", "900 MB", "32.0 GB", "1.0 GB"); b != want {
		t.Errorf("in English: %q, want %q", b, want)
	}
	web.CheckDisk(h.site)
	disk.set(800<<20, 32<<30, nil)
	web.CheckDisk(h.site)
	if n := strings.Count(logs.String(), `level=WARN msg="the data folder's disk is nearly full`); n != 1 {
		t.Errorf("%d warnings in the log while the room stays low, want 1:\n%s", n, grepLines(logs.String(), "disk"))
	}

	disk.set(2<<30, 32<<30, nil)
	web.CheckDisk(h.site)
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Errorf("2 GiB free: still warned %s", b)
	}
	if !strings.Contains(logs.String(), `level=INFO msg="the data folder's disk has room again"`) {
		t.Errorf("the log does not say the room is back:\n%s", grepLines(logs.String(), "disk"))
	}

	// a small SD card: 5 % of 8 GiB is some 409 MiB
	disk.set(500<<20, 8<<30, nil)
	web.CheckDisk(h.site)
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Errorf("500 MiB free of 8 GiB: warned %s", b)
	}
	disk.set(300<<20, 8<<30, nil)
	web.CheckDisk(h.site)
	if b, want := diskBanner(h.get(admin, "/admin/backups").Body), cat.T("en", "storage.low", "300 MB", "8.0 GB", "409 MB"); b != want {
		t.Errorf("300 MiB free of 8 GiB: %q, want %q", b, want)
	}

	// the room cannot be told (another platform, a folder gone): no warning, and the log says so once
	disk.set(0, 0, errors.New("statfs: no such file or directory"))
	web.CheckDisk(h.site)
	web.CheckDisk(h.site)
	if b := diskBanner(h.get(admin, "/admin/backups").Body); b != "" {
		t.Errorf("the room unknown: warned %s", b)
	}
	if n := strings.Count(logs.String(), `msg="the data folder's free space is not known`); n != 1 {
		t.Errorf("%d log lines say the room is not known, want 1", n)
	}
}
