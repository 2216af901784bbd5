package notify_test

import (
	"context"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/notify"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
)

// received is a mail as the test's SMTP server got it.
type received struct {
	To, Subject, Body string
}

// mailbox is an SMTP server in the test process (go-smtp): it keeps what it receives, and refuses the next
// refuse messages with a temporary failure, as a busy server would.
type mailbox struct {
	mu     sync.Mutex
	got    []received
	refuse int
	tries  int
}

func (b *mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{box: b}, nil }

type session struct {
	box *mailbox
	to  string
}

func (s *session) Reset()                                    {}
func (s *session) Logout() error                             { return nil }
func (s *session) Mail(string, *smtp.MailOptions) error      { return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = to; return nil }

func (s *session) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	b := s.box
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tries++
	if b.refuse > 0 {
		b.refuse--
		io.Copy(io.Discard, msg.Body)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "busy, try later"}
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		return err
	}
	if to := msg.Header.Get("To"); !strings.Contains(to, s.to) {
		return fmt.Errorf("To: %q, envelope %q", to, s.to)
	}
	b.got = append(b.got, received{To: s.to, Subject: subject, Body: string(body)})
	return nil
}

// to returns the mails received for an address.
func (b *mailbox) to(addr string) []received {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []received
	for _, m := range b.got {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

type club_ struct {
	t     *testing.T
	db    *sqlstore.DB
	svc   *club.Services
	site  *web.Server
	mu    sync.Mutex
	now   time.Time
	users map[string]*club.User
	box   *mailbox
}

func (c *club_) setNow(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

func (c *club_) clockNow() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *club_) must(err error) {
	c.t.Helper()
	if err != nil {
		c.t.Fatal(err)
	}
}

// waitFor waits until cond holds, failing the test if it never does (a generous bound, not a timing
// assertion: the sender and the scheduler poll every few milliseconds).
func (c *club_) waitFor(what string, cond func() bool) {
	c.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	c.t.Fatalf("never: %s", what)
}

// inbox returns the kinds of a member's notices, oldest first.
func (c *club_) inbox(login string) []club.NoticeKind {
	list, err := c.svc.Notices.Inbox(context.Background(), c.users[login])
	c.must(err)
	var out []club.NoticeKind
	for i := len(list) - 1; i >= 0; i-- {
		out = append(out, list[i].Kind)
	}
	return out
}

func newClub(t *testing.T) *club_ {
	zone, err := time.LoadLocation("Europe/Kyiv")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &club_{t: t, db: db, now: time.Date(2026, 12, 1, 12, 0, 0, 0, zone), users: map[string]*club.User{}, box: &mailbox{}}
	clock := club.NewClock(zone, c.clockNow)
	db.Now = clock.Now
	c.svc = club.NewServices(db, clock)
	if c.site, err = web.New(c.svc); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	admin := &club.User{Login: "admin", Name: "Admin", Role: club.RoleAdmin, PasswordHash: "x", Status: club.StatusActive}
	c.must(db.CreateUser(ctx, admin))
	c.users["admin"] = admin
	for i := 1; i <= 9; i++ {
		login := fmt.Sprintf("m%d", i)
		u := &club.User{Login: login, Name: "Member " + login, Role: club.RoleMember, PasswordHash: "x", Status: club.StatusActive, Lang: "uk"}
		if i%2 == 0 {
			u.Lang = "en"
		}
		c.must(db.CreateMember(ctx, u, &club.Player{Nick: "Nick" + login}))
		c.users[login] = u
		if i != 9 { // m9 gives no address
			c.must(c.svc.Notices.SetEmail(ctx, u, club.EmailForm{Address: login + "@example.org", Off: i == 8}))
		}
	}
	// the club's mail server
	srv := smtp.NewServer(c.box)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
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
	nctx, cancel := context.WithCancel(context.Background())
	wait := notify.Start(nctx, c.svc.Notices, notify.Options{SMTP: conf, Render: c.site.MailText, Poll: 5 * time.Millisecond})
	t.Cleanup(func() { cancel(); wait() })
	return c
}

// The four triggers, each in the inbox and by e-mail: a move from the reserve to the main line-up (its first send
// refused by the server, then sent once its retry is due), a change and a cancellation of a night the member is
// registered for, the reminder the day before (with the cancellation deadline in the club's time zone), and a
// strike. A member who turned e-mail off, or gave no address, has the notices in his inbox only.
func TestNotices(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	admin := c.users["admin"]
	zone := c.svc.Clock.Zone
	start := time.Date(2026, 12, 5, 19, 0, 0, 0, zone)
	night, err := c.svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: start, Place: "Café «Північ»", Tables: 1, PerTable: 7, Note: "bring a pen"})
	c.must(err)
	for i := 1; i <= 9; i++ {
		_, err := c.svc.Nights.Register(ctx, c.users[fmt.Sprintf("m%d", i)], night.ID)
		c.must(err)
	}

	// 1. m1 cancels in time: m8 (e-mail off) moves up; then m2 cancels: m9 (no address) moves up. Nobody mails.
	// m3 cancels too: the reserve is empty. Then m1 registers again (reserve) and m4 cancels: m1 moves up, and
	// the server refuses the first send.
	c.box.mu.Lock()
	c.box.refuse = 1
	c.box.mu.Unlock()
	for _, login := range []string{"m1", "m2"} {
		_, err := c.svc.Nights.Cancel(ctx, c.users[login], night.ID)
		c.must(err)
	}
	if k := c.inbox("m8"); fmt.Sprint(k) != "[promoted]" {
		t.Errorf("m8's inbox %v", k)
	}
	if k := c.inbox("m9"); fmt.Sprint(k) != "[promoted]" {
		t.Errorf("m9's inbox %v", k)
	}
	_, err = c.svc.Nights.Register(ctx, c.users["m1"], night.ID)
	c.must(err)
	_, err = c.svc.Nights.Cancel(ctx, c.users["m4"], night.ID)
	c.must(err)
	if k := c.inbox("m1"); fmt.Sprint(k) != "[promoted]" {
		t.Errorf("m1's inbox %v", k)
	}
	c.waitFor("the failed send recorded", func() bool {
		due, err := c.db.DueMail(ctx, c.clockNow().Add(time.Hour), 10)
		return err == nil && len(due) == 1 && due[0].Attempts == 1
	})
	if got := c.box.to("m1@example.org"); len(got) != 0 {
		t.Fatalf("the refused mail arrived: %+v", got)
	}
	// the retry waits its turn on the club's clock
	c.setNow(c.clockNow().Add(club.RetryAfter(1)))
	c.waitFor("m1's mail after the retry", func() bool { return len(c.box.to("m1@example.org")) == 1 })
	m := c.box.to("m1@example.org")[0]
	if !strings.Contains(m.Subject, "Ви в основному складі") || !strings.Contains(m.Body, "2026-12-05 19:00") ||
		!strings.Contains(m.Body, "Café «Північ»") || !strings.Contains(m.Body, "Вітаємо, Member m1!") || !strings.Contains(m.Body, "bring a pen") {
		t.Errorf("m1's mail (Ukrainian): %+v", m)
	}

	// 2. the admin moves the night an hour later: everyone registered is told, in his language
	_, err = c.svc.Nights.Edit(ctx, admin, night.ID, club.NightForm{StartsAt: start.Add(time.Hour), Place: "Café «Північ»", Tables: 1, PerTable: 7})
	c.must(err)
	c.waitFor("m6's mail about the change", func() bool { return len(c.box.to("m6@example.org")) == 1 })
	m = c.box.to("m6@example.org")[0]
	if !strings.Contains(m.Subject, "A club night you registered for has changed") || !strings.Contains(m.Body, "2026-12-05 20:00") ||
		!strings.Contains(m.Body, "It was to begin at 2026-12-05 19:00") {
		t.Errorf("m6's mail (English): %+v", m)
	}
	if k := c.inbox("m6"); fmt.Sprint(k) != "[night_changed]" {
		t.Errorf("m6's inbox %v", k)
	}

	// 3. the reminder: nothing before 10:00 of the day before; then once, with the last free day
	c.setNow(time.Date(2026, 12, 4, 9, 59, 0, 0, zone))
	if n, err := c.svc.Notices.Remind(ctx); err != nil || n != 0 {
		t.Errorf("reminders before their time: %d %v", n, err)
	}
	c.setNow(time.Date(2026, 12, 4, 10, 0, 0, 0, zone))
	c.waitFor("m6's reminder", func() bool { return len(c.box.to("m6@example.org")) == 2 })
	m = c.box.to("m6@example.org")[1]
	if !strings.Contains(m.Subject, "Tomorrow: a club night") || !strings.Contains(m.Body, "free until the end of 2026-12-04") {
		t.Errorf("the reminder: %+v", m)
	}
	if k := c.inbox("m9"); fmt.Sprint(k) != "[promoted night_changed reminder]" {
		t.Errorf("m9's inbox %v", k)
	}

	// 4. a strike: m5 cancels on the night's day
	c.setNow(time.Date(2026, 12, 5, 9, 0, 0, 0, zone))
	_, err = c.svc.Nights.Cancel(ctx, c.users["m5"], night.ID)
	c.must(err)
	c.waitFor("m5's strike mail", func() bool { return len(c.box.to("m5@example.org")) == 3 })
	m = c.box.to("m5@example.org")[2]
	if !strings.Contains(m.Subject, "Записано порушення") || !strings.Contains(m.Body, "пізнє скасування") {
		t.Errorf("the strike's mail: %+v", m)
	}
	// a no-show, marked once the night has begun
	c.setNow(start.Add(2 * time.Hour))
	c.must(c.svc.Nights.SetNoShow(ctx, admin, night.ID, c.users["m6"].ID, true))
	c.waitFor("m6's strike mail", func() bool { return len(c.box.to("m6@example.org")) == 3 })
	if m := c.box.to("m6@example.org")[2]; !strings.Contains(m.Body, "no-show") {
		t.Errorf("the no-show's mail: %+v", m)
	}

	// the cancellation of another night
	c.setNow(time.Date(2026, 12, 6, 12, 0, 0, 0, zone))
	other, err := c.svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: start.AddDate(0, 0, 7), Place: "Hall", Tables: 1, PerTable: 10})
	c.must(err)
	for _, login := range []string{"m7", "m8"} {
		_, err := c.svc.Nights.Register(ctx, c.users[login], other.ID)
		c.must(err)
	}
	c.must(c.svc.Nights.CancelNight(ctx, admin, other.ID))
	c.waitFor("m7's mail about the cancellation", func() bool {
		got := c.box.to("m7@example.org")
		return len(got) > 0 && strings.Contains(got[len(got)-1].Subject, "Клубний вечір скасовано")
	})
	if k := c.inbox("m8"); k[len(k)-1] != club.NoticeNightCancelled {
		t.Errorf("m8's inbox %v", k)
	}
	// e-mail off, or no address: nothing was mailed to them
	for _, addr := range []string{"m8@example.org", "m9@example.org"} {
		if got := c.box.to(addr); len(got) != 0 {
			t.Errorf("%s got %d mails", addr, len(got))
		}
	}
	// every mail was sent: the outbox is empty
	c.waitFor("an empty outbox", func() bool {
		due, err := c.svc.Notices.DueMail(ctx, 10)
		return err == nil && len(due) == 0
	})
}

func TestParseSMTP(t *testing.T) {
	s, err := notify.ParseSMTP("smtp://club%40example.org:p%40ss@mail.example.org:587?from=club@example.org")
	if err != nil || s.Host != "mail.example.org" || s.Port != "587" || s.User != "club@example.org" || s.Pass != "p@ss" || s.From != "club@example.org" {
		t.Errorf("%+v %v", s, err)
	}
	for _, bad := range []string{"mail.example.org", "http://x?from=a@b.org", "smtp://x", "smtp://x?from=not-an-address"} {
		if _, err := notify.ParseSMTP(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
