package web_test

import (
	"fmt"
	"testing"
	"time"

	"mafiaclub/internal/storetest"
)

// TestE2EHostAppDiskFull: the table app on a server whose disk is full (a tmpfs filled to its last byte). The
// host's tap is drawn at once and kept; the server's 507 is shown with its reason and the word that the actions
// are kept, and the page does not send again and again (it tries in a minute, or at the next tap). Once room is
// made, the next tap sends every kept action, each recorded once (issue 23.5).
func TestE2EHostAppDiskFull(t *testing.T) {
	needBrowser(t)
	h, dir, _ := smallDiskSite(t, 16<<20)
	h.site.SetEngine(testEngine(t))
	site := &e2eSite{Site: h.site, DB: h.store, URL: h.srv.URL, reqs: &requestLog{}}
	host, id := site.guestGame(t)
	bctx, stop := startBrowser(t)
	defer stop()
	deadline := time.AfterFunc(3*time.Minute, stop)
	defer deadline.Stop()
	a := &appTest{t: t, site: site, host: host, id: id, ctx: bctx}
	b := a.open("507") // the refused sends: failed loads the test expects
	cat := mustCatalog(t)
	lang := eval[string](b.hostBrowser, `document.documentElement.lang`)
	said := cat.T(lang, "error.no_space") + " " + cat.T(lang, "host.no_space_kept")
	shown := fmt.Sprintf(`(() => { const e = document.getElementById('game-error'); return !!e && !e.hidden && e.textContent === %q; })()`, said)

	b.play(2)
	b.until("online actions saved", `mafiaclubHost.pending() === 0`, 10*time.Second)

	free := storetest.FillDisk(t, dir)
	defer free()
	b.play(1)
	b.until("the host is told that the disk is full", shown, 10*time.Second)
	sent := b.posts.Load()
	time.Sleep(5 * time.Second)
	if n := b.posts.Load() - sent; n != 0 {
		t.Errorf("the page sent %d times more in 5 s after the server said its disk is full", n)
	}
	if n := b.pending(); n != 1 {
		t.Fatalf("%d actions kept on the page, want the one refused", n)
	}
	if v := a.server().Game.Version; v != 2 {
		t.Fatalf("the server has version %d on a full disk, want 2", v)
	}
	b.play(1) // the host's next tap sends again, and is told again
	b.until("the second tap kept and refused", `mafiaclubHost.pending() === 2`, 5*time.Second)
	b.until("the host is told again", shown, 10*time.Second)

	free()
	b.play(1)
	b.until("every kept action saved once room is made", `mafiaclubHost.pending() === 0`, 15*time.Second)
	if eval[bool](b.hostBrowser, shown) {
		t.Error("the page still says the disk is full once the actions are saved")
	}
	st := a.server()
	if st.Game.Version != 5 {
		t.Fatalf("the server has version %d, want 5 (each action once)", st.Game.Version)
	}
	sameGame(t, b, st)
}
