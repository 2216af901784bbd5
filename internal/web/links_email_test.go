package web_test

import (
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"mafiaclub/internal/notify"
	"mafiaclub/internal/storetest"
	"mafiaclub/internal/web"
)

// An e-mail address counts for the one-time links only once confirmed: a new address is sent a link that confirms
// it (for its member, logged in); until then no sign-in link goes to it, and a changed address is unconfirmed
// again.

func TestSignInLinkByConfirmedEmail(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { signInLinkByConfirmedEmail(t, newHarness(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { signInLinkByConfirmedEmail(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

// sink is an SMTP server in the test (go-smtp) that keeps the mails it receives.
type sink struct {
	mu  sync.Mutex
	got []sunk
}

type sunk struct{ To, Subject, Body string }

func (b *sink) NewSession(*smtp.Conn) (smtp.Session, error) { return &sinkSession{box: b}, nil }

type sinkSession struct {
	box *sink
	to  string
}

func (s *sinkSession) Reset()                                    {}
func (s *sinkSession) Logout() error                             { return nil }
func (s *sinkSession) Mail(string, *smtp.MailOptions) error      { return nil }
func (s *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = to; return nil }

func (s *sinkSession) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	s.box.got = append(s.box.got, sunk{To: s.to, Subject: subject, Body: string(body)})
	s.box.mu.Unlock()
	return nil
}

func (b *sink) to(addr string) []sunk {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []sunk
	for _, m := range b.got {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

var (
	confirmLinkRe = regexp.MustCompile(`https://club\.example\.org(/me/email/confirm\?token=[A-Za-z0-9_-]+)`)
	mailLinkRe    = regexp.MustCompile(`https://club\.example\.org(/login/link\?token=[A-Za-z0-9_-]+)`)
)

func signInLinkByConfirmedEmail(t *testing.T, h *harness) {
	h.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	h.site.PublicURL, h.site.Mail = "https://club.example.org", true
	clk := &clock{t: time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)}
	svc := h.site.Services()
	svc.Clock.Set(clk.now)
	box := &sink{}
	srv := smtp.NewServer(box)
	srv.Domain, srv.AllowInsecureAuth = "localhost", true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	conf, err := notify.ParseSMTP(fmt.Sprintf("smtp://%s?from=club@example.org", ln.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	sender := &notify.Sender{Notices: svc.Notices, SMTP: conf, Render: h.site.MailText, Log: h.site.Log, Links: svc.Accounts, LinkRender: h.site.LinkMail}

	olha := h.user("olha", "member")
	taras := h.user("taras", "member")
	const addr = "olha@example.org"
	if r := h.post(olha, "/me/email", url.Values{"email": {addr}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("setting the address: %d %s", r.StatusCode, errorOf(r.Body))
	}
	sender.SendLinks()
	mails := box.to(addr)
	if len(mails) != 1 {
		t.Fatalf("%d mails to the new address, want its confirmation", len(mails))
	}
	confirm := confirmLinkRe.FindStringSubmatch(mails[0].Body)
	if confirm == nil {
		t.Fatalf("no confirmation link: %q", mails[0].Body)
	}
	if r := h.get(olha, "/me/notices"); !strings.Contains(r.Body, "ще не підтверджено") {
		t.Errorf("the notices page before the confirmation: %s", r.Body)
	}

	// askLink asks for olha's sign-in link from a fresh browser, and returns it and the mails it brought
	askLink := func() (*http.Client, []sunk) {
		t.Helper()
		c := h.client()
		before := len(box.to(addr))
		r := h.post(c, "/login/link", url.Values{"login": {"olha"}})
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `id="login-link-sent"`) {
			t.Fatalf("asking for a link: %d %s", r.StatusCode, errorOf(r.Body))
		}
		sender.SendLinks()
		return c, box.to(addr)[before:]
	}
	if _, got := askLink(); len(got) != 0 {
		t.Errorf("a sign-in link went to an address not confirmed: %q", got[0].Body)
	}

	// another member cannot confirm it; olha can
	if r := h.get(taras, confirm[1]); r.StatusCode != http.StatusNotFound {
		t.Errorf("another member's use of the confirmation: %d", r.StatusCode)
	}
	if r := h.get(olha, confirm[1]); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirming: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.get(olha, "/me/notices?confirmed=1"); !strings.Contains(r.Body, `id="email-confirmed-now"`) || !strings.Contains(r.Body, "Цю адресу підтверджено") {
		t.Errorf("the notices page after the confirmation: %s", r.Body)
	}
	if r := h.get(olha, confirm[1]); r.StatusCode != http.StatusNotFound {
		t.Errorf("a confirmation used twice: %d", r.StatusCode)
	}

	// now the sign-in link comes by e-mail, and lets the browser that asked in
	h.post(olha, "/logout", nil)
	dev, got := askLink()
	if len(got) != 1 {
		t.Fatalf("%d sign-in mails to the confirmed address, want 1", len(got))
	}
	link := mailLinkRe.FindStringSubmatch(got[0].Body)
	if link == nil {
		t.Fatalf("no sign-in link in the mail: %q", got[0].Body)
	}
	if r := h.get(dev, link[1]); r.StatusCode != http.StatusSeeOther || h.get(dev, "/me").StatusCode != http.StatusOK {
		t.Fatalf("following the mailed link: %d %s", r.StatusCode, errorOf(r.Body))
	}

	// a changed address is not confirmed: no link goes to the old one, nor to the new one
	if r := h.post(dev, "/me/email", url.Values{"email": {"olha2@example.org"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("changing the address: %d", r.StatusCode)
	}
	sender.SendLinks()
	if _, got := askLink(); len(got) != 0 || len(box.to("olha2@example.org")) != 1 {
		t.Errorf("after the address changed: %d links to the old address, %d mails to the new (want only its confirmation)",
			len(got), len(box.to("olha2@example.org")))
	}
}
