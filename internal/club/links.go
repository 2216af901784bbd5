package club

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"sync"
	"time"
)

// One-time links to an account. While a login is being guessed from many addresses, its owner on a device the club
// has never seen is held by the login's delay like any guesser (throttle.admit): his address and his browser tell
// him from nobody. What a guesser does not have is the owner's own chat or mailbox: on the login page, the owner
// asks for a sign-in link, which goes to his account's linked Telegram chat (linking a chat proves it is his:
// telegram.go) and to his confirmed e-mail address, and lets the browser that asked in once, whatever the
// guessing. An address is confirmed by following the link of purpose LinkConfirmEmail sent to it when it is set
// (Notices.SetEmail); until then nothing of the account's goes to it but that link. The same links, with another
// purpose, are to be the way back from a forgotten password: the store keeps the purpose, and the message says
// what the link is for.
//
// A link's token is 32 random bytes; the store keeps only its SHA-256. It lasts LinkTTL on the club's clock, is
// used up by its first use (the store deletes it in one statement: of two uses at once, one wins), and works only in
// the browser that asked for it: that browser is given a random nonce (a cookie, LinkNonce) whose SHA-256 is kept
// with the link, and a use without the same nonce finds no link (and does not use it up). So a link read from the
// chat by someone else, or opened by a scanner of links, lets nobody in.
//
// Asking for a link answers the same whatever the login: an account that does not exist, or has no chat to send to,
// gets the same page and the same cookie, and nothing is sent. The asking is bounded per login and per address (the
// throttle's "link:" and "linkip:" keys), which bounds the messages a stranger can have sent to a member's chat.

// LinkTTL is how long a one-time link lasts.
const LinkTTL = 15 * time.Minute

// LinkPurpose is what a one-time link does.
type LinkPurpose string

// The purposes of the links.
const (
	LinkSignIn       LinkPurpose = "sign_in"       // logs the account in
	LinkConfirmEmail LinkPurpose = "confirm_email" // confirms the member's e-mail address
)

// LinkChannel is where a link's message goes.
type LinkChannel string

// The channels of the links.
const (
	LinkTelegram LinkChannel = "telegram" // the member's linked chat
	LinkEmail    LinkChannel = "email"    // the member's confirmed address (or, to confirm it, the address)
)

// AccountLink is a one-time link as the store keeps it: hashes only.
type AccountLink struct {
	TokenHash  []byte
	DeviceHash []byte // the SHA-256 of the asking browser's nonce
	Purpose    LinkPurpose
	UserID     int64
	CreatedAt  time.Time
	Expires    time.Time
}

// LinkStore is the storage of the one-time links, part of the Store contract.
type LinkStore interface {
	// CreateAccountLink keeps a new link, and drops every link expired at its CreatedAt.
	CreateAccountLink(ctx context.Context, l AccountLink) error
	// UseAccountLink uses up the link of tokenHash for purpose, if it was asked for by the browser of deviceHash and
	// has not expired at now, and returns its account. It is deleted in the statement that finds it: of two uses at
	// once, one wins. Any other link (unknown, used, expired, of another purpose or browser) is NotFound, and a link
	// of another browser is not used up.
	UseAccountLink(ctx context.Context, tokenHash []byte, purpose LinkPurpose, deviceHash []byte, now time.Time) (userID int64, err error)
	// ConfirmedEmail returns a member's e-mail address when it is confirmed, "" otherwise (none, or changed since).
	ConfirmedEmail(ctx context.Context, userID int64) (string, error)
	// ConfirmEmail confirms a member's address, if it is still his address (NotFound otherwise).
	ConfirmEmail(ctx context.Context, userID int64, address string) error
}

// LinkMessage is a one-time link on its way to its account's chat. It lives in memory only (the store keeps the
// token's hash, never the token): a message the server did not send before it stopped is lost, and the owner asks
// again.
type LinkMessage struct {
	Purpose LinkPurpose
	UserID  int64
	Name    string // the account's name
	Lang    string // the account's language
	Chat    int64  // the linked Telegram chat (LinkTelegram)
	Email   string // the address (LinkEmail)
	Token   string
	Expires time.Time
}

// Channel is where the message goes.
func (m LinkMessage) Channel() LinkChannel {
	if m.Chat != 0 {
		return LinkTelegram
	}
	return LinkEmail
}

// maxLinkOutbox bounds the messages waiting in memory on each channel: the throttle bounds the asking, this the
// memory whatever happens to the sender (a club without a mail server never sends its e-mails).
const maxLinkOutbox = 1000

// linkOutbox is the messages waiting to be sent, and a signal for each channel's sender.
type linkOutbox struct {
	mu    sync.Mutex
	queue map[LinkChannel][]LinkMessage
	ready map[LinkChannel]chan struct{}
}

func (o *linkOutbox) push(m LinkMessage) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	ch := m.Channel()
	if len(o.queue[ch]) >= maxLinkOutbox {
		return false
	}
	if o.queue == nil {
		o.queue = map[LinkChannel][]LinkMessage{}
	}
	o.queue[ch] = append(o.queue[ch], m)
	select {
	case o.wake(ch) <- struct{}{}:
	default:
	}
	return true
}

// wake is the channel ch's sender waits on (o.mu held).
func (o *linkOutbox) wake(ch LinkChannel) chan struct{} {
	if o.ready == nil {
		o.ready = map[LinkChannel]chan struct{}{}
	}
	if o.ready[ch] == nil {
		o.ready[ch] = make(chan struct{}, 1)
	}
	return o.ready[ch]
}

// LinkRequest is what asking for a link did. Nonce is the browser's, for its cookie, whatever the login; the rest
// is for the server's log only, never for the page (it would tell which logins exist).
type LinkRequest struct {
	Nonce  string
	UserID int64  // the account a link was sent for; 0 when none was
	Via    string // "telegram", "email", "telegram+email", or why nothing was sent: "no account", "no channel"
}

// linkHash is what the store keeps of a link's token or of a browser's nonce.
func linkHash(kind, s string) []byte {
	h := sha256.Sum256([]byte("mafiaclub account link " + kind + "\x00" + s))
	return h[:]
}

// maxLinkToken bounds a token or nonce read back: real ones are 43 bytes (32 in base64url).
const maxLinkToken = 100

// RequestSignInLink asks for a sign-in link for login, from a client at addr whose browser holds nonce (from an
// earlier asking; "" when none): when the login is a club account with a working Telegram chat or a confirmed
// e-mail address, a link is made (only its hash kept) and queued for each. Whatever the login, it returns the nonce for the asking browser's
// cookie (the one it holds, so that its earlier links still work there, or a new one) and no error, unless the
// asking is throttled (per login and per address: ErrThrottled, the same for every login) or the server fails.
func (a *Accounts) RequestSignInLink(ctx context.Context, login, addr, nonce string) (LinkRequest, error) {
	return a.requestLink(ctx, LinkSignIn, login, addr, nonce)
}

func (a *Accounts) requestLink(ctx context.Context, purpose LinkPurpose, login, addr, nonce string) (LinkRequest, error) {
	login = strings.TrimSpace(login)
	now := a.clock.Now()
	if !a.throttle.reserve([]string{"link:" + loginKey(login), "linkip:" + addr}, now) {
		return LinkRequest{}, ErrThrottled
	}
	if b, err := base64.RawURLEncoding.DecodeString(nonce); err != nil || len(b) != 32 {
		if nonce, err = newToken(); err != nil {
			return LinkRequest{}, err
		}
	}
	req := LinkRequest{Nonce: nonce, Via: "no account"}
	if login == "" || len(login) > 4*MaxLoginChars {
		return req, nil
	}
	u, err := a.store.UserByLogin(ctx, login)
	if ErrorCode(err) == NotFound {
		return req, nil
	}
	if err != nil {
		return LinkRequest{}, err
	}
	var to []LinkMessage
	chat, err := a.store.TelegramLinkOf(ctx, u.ID)
	switch {
	case err == nil && !chat.Dead():
		to = append(to, LinkMessage{Chat: chat.ChatID})
	case err != nil && ErrorCode(err) != NotFound:
		return LinkRequest{}, err
	}
	email, err := a.store.ConfirmedEmail(ctx, u.ID)
	if err != nil {
		return LinkRequest{}, err
	}
	if email != "" {
		to = append(to, LinkMessage{Email: email})
	}
	if len(to) == 0 {
		req.Via = "no channel"
		return req, nil
	}
	tok, err := newToken()
	if err != nil {
		return LinkRequest{}, err
	}
	l := AccountLink{TokenHash: linkHash("token", tok), DeviceHash: linkHash("nonce", nonce), Purpose: purpose, UserID: u.ID,
		CreatedAt: now, Expires: now.Add(LinkTTL)}
	if err := a.store.CreateAccountLink(ctx, l); err != nil {
		return LinkRequest{}, err
	}
	var via []string
	for _, m := range to {
		m.Purpose, m.UserID, m.Name, m.Lang, m.Token, m.Expires = purpose, u.ID, u.Name, u.Lang, tok, l.Expires
		if a.links.push(m) {
			via = append(via, string(m.Channel()))
		}
	}
	if len(via) == 0 {
		req.Via = "outbox full"
		return req, nil
	}
	req.UserID, req.Via = u.ID, strings.Join(via, "+")
	return req, nil
}

// sendEmailConfirmation sends u a link that confirms addr, his address now. It works in any browser where he is
// logged in (ConfirmEmail), for LinkTTL, once: its "device" is the address, so that it confirms no other address
// he may set meanwhile. It is bounded with the sign-in links of his login; past the bound, nothing is sent.
func (a *Accounts) sendEmailConfirmation(ctx context.Context, u *User, addr string) error {
	now := a.clock.Now()
	if !a.throttle.reserve([]string{"link:" + loginKey(u.Login)}, now) {
		return nil
	}
	tok, err := newToken()
	if err != nil {
		return err
	}
	l := AccountLink{TokenHash: linkHash("token", tok), DeviceHash: linkHash("email", addr), Purpose: LinkConfirmEmail, UserID: u.ID,
		CreatedAt: now, Expires: now.Add(LinkTTL)}
	if err := a.store.CreateAccountLink(ctx, l); err != nil {
		return err
	}
	a.links.push(LinkMessage{Purpose: LinkConfirmEmail, UserID: u.ID, Name: u.Name, Lang: u.Lang, Email: addr, Token: tok, Expires: l.Expires})
	return nil
}

// ConfirmEmail uses up the link sent to u's e-mail address, and so confirms it: from then on his sign-in links go
// there too. Only u, logged in, may; a link sent to an address he has changed since confirms nothing.
func (a *Accounts) ConfirmEmail(ctx context.Context, u *User, token string) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	if token == "" || len(token) > maxLinkToken {
		return ErrLinkInvalid
	}
	addr, _, err := a.store.EmailSettings(ctx, u.ID)
	if err != nil {
		return err
	}
	id, err := a.store.UseAccountLink(ctx, linkHash("token", token), LinkConfirmEmail, linkHash("email", addr), a.clock.Now())
	switch {
	case ErrorCode(err) == NotFound || (err == nil && id != u.ID):
		return ErrLinkInvalid
	case err != nil:
		return err
	}
	if err := a.store.ConfirmEmail(ctx, u.ID, addr); ErrorCode(err) == NotFound {
		return ErrLinkInvalid
	} else if err != nil {
		return err
	}
	return nil
}

// ErrLinkInvalid refuses a link that is unknown, used, expired, or opened in another browser than the one that
// asked for it: one answer for all, the same the store gives.
var ErrLinkInvalid = &Error{Code: NotFound, Message: "this link is not valid: it was used, it expired, or it was opened in another browser than the one that asked for it"}

// SignInByLink uses up a sign-in link (its token) in the browser that holds nonce, and opens a session, as a
// password's login does: it returns the account and the session's token. It is no guess at the password: the
// throttle neither counts nor holds it.
func (a *Accounts) SignInByLink(ctx context.Context, token, nonce string) (*User, string, error) {
	if token == "" || nonce == "" || len(token) > maxLinkToken || len(nonce) > maxLinkToken {
		return nil, "", ErrLinkInvalid
	}
	id, err := a.store.UseAccountLink(ctx, linkHash("token", token), LinkSignIn, linkHash("nonce", nonce), a.clock.Now())
	if ErrorCode(err) == NotFound {
		return nil, "", ErrLinkInvalid
	}
	if err != nil {
		return nil, "", err
	}
	u, err := a.store.User(ctx, id)
	if err != nil {
		return nil, "", err
	}
	tok, err := a.newSession(ctx, u)
	if err != nil {
		return nil, "", err
	}
	return u, tok, nil
}

// LinkMessages takes up to max of the links waiting to be sent on ch, oldest first. The sender's.
func (a *Accounts) LinkMessages(ch LinkChannel, max int) []LinkMessage {
	o := &a.links
	o.mu.Lock()
	defer o.mu.Unlock()
	q := o.queue[ch]
	n := min(max, len(q))
	out := append([]LinkMessage(nil), q[:n]...)
	if o.queue != nil {
		o.queue[ch] = append(q[:0], q[n:]...)
	}
	return out
}

// LinksReady is signalled when a link is queued on ch: its sender sends it at once rather than at its next round.
func (a *Accounts) LinksReady(ch LinkChannel) <-chan struct{} {
	a.links.mu.Lock()
	defer a.links.mu.Unlock()
	return a.links.wake(ch)
}
