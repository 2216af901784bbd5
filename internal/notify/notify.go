// Package notify is the server's side of the members' notices: the e-mail sender, which drains the outbox the
// store writes in the same transaction as each change (so sending never holds up a page and a failed send is
// tried again, with a growing wait, until it goes), and the scheduler of the reminders the day before a club
// night. Both run as goroutines on the club's injected clock and stop when their context ends.
package notify

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"sync"
	"time"

	"mafiaclub/internal/club"
)

// SMTP is the club's mail server, from a URL like smtp://user:password@host:587?from=club@example.org (the user
// is optional; the password is only sent over TLS, which is used whenever the server offers STARTTLS).
type SMTP struct {
	Host, Port string
	User, Pass string
	From       string
}

// ParseSMTP reads the club's -smtp setting.
func ParseSMTP(raw string) (*SMTP, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" {
		return nil, fmt.Errorf("smtp: want a URL like smtp://user:password@host:587?from=club@example.org")
	}
	s := &SMTP{Host: u.Hostname(), Port: u.Port(), From: u.Query().Get("from")}
	if s.Port == "" {
		s.Port = "25"
	}
	if u.User != nil {
		s.User = u.User.Username()
		s.Pass, _ = u.User.Password()
	}
	if s.From == "" {
		return nil, fmt.Errorf("smtp: name the sender's address: ?from=club@example.org")
	}
	if a, err := mail.ParseAddress(s.From); err != nil || a.Address != s.From {
		return nil, fmt.Errorf("smtp: from=%q is not an e-mail address", s.From)
	}
	return s, nil
}

// Render writes a mail's subject and plain-text body in the member's language.
type Render func(m club.Mail) (subject, body string)

// Options configure Start.
type Options struct {
	SMTP   *SMTP         // nil: no e-mail; the inbox still gets every notice
	Render Render        // required with SMTP
	Poll   time.Duration // how often the outbox is read and the reminders checked; 0 is 15 seconds
	Log    *slog.Logger

	Links      *club.Accounts // with SMTP: the accounts whose one-time links go by e-mail (Sender.Links)
	LinkRender LinkRender     // required with Links
}

// LinkRender writes a one-time link's mail in its member's language.
type LinkRender func(m club.LinkMessage) (subject, body string)

// Start runs the reminders' scheduler and, with an SMTP server, the e-mail sender, until ctx ends; the function it
// returns waits until both have stopped (a send in flight finishes or times out first).
func Start(ctx context.Context, n *club.Notices, o Options) (wait func()) {
	if o.Poll <= 0 {
		o.Poll = 15 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		every(ctx, o.Poll, func() {
			if _, err := n.Remind(ctx); err != nil && ctx.Err() == nil {
				o.Log.Error("reminders", "err", err)
			}
		})
	})
	if o.SMTP != nil {
		s := &Sender{Notices: n, SMTP: o.SMTP, Render: o.Render, Log: o.Log, Links: o.Links, LinkRender: o.LinkRender}
		wg.Go(func() { every(ctx, o.Poll, func() { s.Drain(ctx) }) })
		if s.Links != nil {
			ready := s.Links.LinksReady(club.LinkEmail)
			wg.Go(func() { whenReady(ctx, ready, s.SendLinks) })
		}
	}
	return wg.Wait
}

// whenReady runs f each time ready says there is something to send, until ctx ends.
func whenReady(ctx context.Context, ready <-chan struct{}, f func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ready:
			f()
		}
	}
}

// every runs f at once and then every d until ctx ends.
func every(ctx context.Context, d time.Duration, f func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		f()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Sender sends the outbox's due mails.
type Sender struct {
	Notices *club.Notices
	SMTP    *SMTP
	Render  Render
	Log     *slog.Logger

	// Links, when not nil, are the accounts whose one-time links (club.LinkMessage) go by e-mail, written by
	// LinkRender: sent as soon as they are asked for (Start), and once: a link whose send fails is logged and lost
	// (it lives in memory only, the store keeps its hash), and its member asks for another.
	Links      *club.Accounts
	LinkRender LinkRender
}

// SendLinks sends the one-time links waiting.
func (s *Sender) SendLinks() {
	if s.Links == nil {
		return
	}
	for {
		links := s.Links.LinkMessages(club.LinkEmail, 20)
		if len(links) == 0 {
			return
		}
		for _, m := range links {
			subject, body := s.LinkRender(m)
			id := make([]byte, 12)
			rand.Read(id)
			msg := s.compose(m.Name, m.Email, subject, body, fmt.Sprintf("link-%x", id))
			// the token is in the message, never in the log
			if err := s.deliver(m.Email, msg); err != nil {
				s.Log.Warn("a one-time link was not sent by e-mail", "user", m.UserID, "purpose", m.Purpose, "err", err)
				continue
			}
			s.Log.Info("a one-time link was sent by e-mail", "user", m.UserID, "purpose", m.Purpose)
		}
	}
}

// Drain sends the one-time links waiting, then every mail that is due, recording each success and each failure
// (the failed are tried again later).
func (s *Sender) Drain(ctx context.Context) {
	s.SendLinks()
	for ctx.Err() == nil {
		due, err := s.Notices.DueMail(ctx, 20)
		if err != nil {
			if ctx.Err() == nil {
				s.Log.Error("outbox", "err", err)
			}
			return
		}
		if len(due) == 0 {
			return
		}
		sent := 0
		for _, m := range due {
			var rec error
			if err := s.send(m); err != nil {
				s.Log.Warn("mail not sent; it will be tried again", "outbox", m.ID, "attempts", m.Attempts+1, "err", err)
				rec = s.Notices.MailFailed(ctx, m, err.Error())
			} else {
				sent++
				rec = s.Notices.MailSent(ctx, m.ID)
			}
			if err := rec; err != nil {
				s.Log.Error("outbox", "err", err)
				return
			}
		}
		if sent == 0 {
			return // all failed: wait for their turn
		}
	}
}

// message is the mail as sent: headers and a quoted-printable UTF-8 body.
func (s *Sender) message(m club.Mail) []byte {
	subject, body := s.Render(m)
	return s.compose(m.Name, m.Address, subject, body, fmt.Sprintf("notice-%d.%d", m.Notice.ID, m.ID))
}

// compose writes a mail to name <address> whose Message-ID is <id@host>.
func (s *Sender) compose(name, address, subject, body, id string) []byte {
	var b bytes.Buffer
	to := (&mail.Address{Name: name, Address: address}).String()
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s@%s>\r\n",
		s.SMTP.From, to, mime.QEncoding.Encode("utf-8", subject), time.Now().UTC().Format(time.RFC1123Z), id, s.SMTP.Host)
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(strings.ReplaceAll(body, "\n", "\r\n")))
	qp.Close()
	return b.Bytes()
}

// sendTimeout bounds one send, so that a server that stops answering never holds the sender (nor a shutdown).
const sendTimeout = 30 * time.Second

// send delivers one mail of the outbox.
func (s *Sender) send(m club.Mail) error { return s.deliver(m.Address, s.message(m)) }

// deliver sends msg to address with net/smtp: STARTTLS when the server offers it, the login when one is
// configured.
func (s *Sender) deliver(address string, msg []byte) error {
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(s.SMTP.Host, s.SMTP.Port), sendTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(sendTimeout))
	c, err := smtp.NewClient(conn, s.SMTP.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(&tls.Config{ServerName: s.SMTP.Host}); err != nil {
			return err
		}
	}
	if s.SMTP.User != "" {
		if err := c.Auth(smtp.PlainAuth("", s.SMTP.User, s.SMTP.Pass, s.SMTP.Host)); err != nil {
			return err
		}
	}
	if err := c.Mail(s.SMTP.From); err != nil {
		return err
	}
	if err := c.Rcpt(address); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(msg); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}
