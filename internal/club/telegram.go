package club

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The club's Telegram (issue 28). A member links his account to his chat with the club's bot once, by a one-time
// code from his page on the site (no password passes through Telegram); his notices then also go to that chat,
// queued in the transaction of the notice itself (the store's notify), and the bot's buttons register him for a
// club night, cancel, and show his place, through Nights, as the site does. The club's channel (optional) gets
// each new night, its line-up when registration closes, each saved rated game, a tournament's standings after each
// round and a link to each game's live page when it starts. Telegram's own client is internal/telegram; the
// sender that drains the outbox is internal/notify's.

// TelegramLink is a member's linked Telegram chat.
type TelegramLink struct {
	UserID     int64
	ChatID     int64
	LinkedAt   time.Time
	DeadAt     time.Time // when Telegram said the chat is gone or the bot is blocked there; zero while it works
	DeadReason string
}

// Dead reports whether Telegram refused the chat for good: nothing is sent to it until the member links again.
func (l TelegramLink) Dead() bool { return !l.DeadAt.IsZero() }

// TelegramMessage is a message of the Telegram outbox: a member's notice to his chat (Notice.ID is not 0), or a
// post to the club's channel (Post is its key: "night:ID", "lineup:ID", "result:GAME", "live:GAME",
// "round:STAGE:ROUND").
type TelegramMessage struct {
	ID        int64
	Chat      string // a chat's id, or the channel's @name
	UserID    int64
	Notice    Notice
	Post      string
	Lang      string // the member's language, for a notice
	Name      string // the member's name, for a notice
	At        time.Time
	Attempts  int
	SentAt    time.Time
	DroppedAt time.Time
	LastError string
}

// TelegramStore is the storage of the members' Telegram links, their codes and the Telegram outbox, part of the
// Store contract. A notice's message is written by the store's own notice (NoticeStore), in its transaction, for a
// member whose link is not dead.
type TelegramStore interface {
	// TelegramCode keeps a new linking code's hash for a member until expires, dropping his earlier ones.
	TelegramCode(ctx context.Context, userID int64, codeHash string, expires time.Time) error
	// TelegramLink links chatID to the member whose code hash it is, if the code has not expired, and uses the code
	// up, in one transaction: the member's earlier chat and any other account's link of this chat are replaced.
	// A wrong or expired code is NotFound.
	TelegramLink(ctx context.Context, codeHash string, chatID int64, now time.Time) (userID int64, err error)
	// TelegramUnlink removes a member's link (none is no error); TelegramUnlinkChat removes the link of a chat and
	// returns its member (NotFound when the chat is not linked). Both drop the chat's unsent notices.
	TelegramUnlink(ctx context.Context, userID int64) error
	TelegramUnlinkChat(ctx context.Context, chatID int64) (userID int64, err error)
	// TelegramLinkOf returns a member's link, dead or not (NotFound when none).
	TelegramLinkOf(ctx context.Context, userID int64) (*TelegramLink, error)
	// TelegramChatUser returns the member a chat is linked to and working for (NotFound otherwise).
	TelegramChatUser(ctx context.Context, chatID int64) (userID int64, err error)
	// TelegramLinkDead marks a chat's link dead with Telegram's reason, and drops the chat's unsent messages with
	// it.
	TelegramLinkDead(ctx context.Context, chatID int64, reason string, now time.Time) error
	// TelegramDue lists the messages neither sent nor dropped whose next attempt is due at now, oldest first.
	TelegramDue(ctx context.Context, now time.Time, limit int) ([]TelegramMessage, error)
	TelegramSent(ctx context.Context, id int64, now time.Time) error
	// TelegramFailed records a failed send and when to try again; TelegramDropped gives a message up, with why.
	TelegramFailed(ctx context.Context, id int64, reason string, next time.Time) error
	TelegramDropped(ctx context.Context, id int64, reason string, now time.Time) error
	// TelegramFailures lists the messages that failed at least once (dropped, or waiting for another attempt),
	// newest first.
	TelegramFailures(ctx context.Context, limit int) ([]TelegramMessage, error)
	// TelegramPost queues a post to chat under its key, once: false when the key was queued already.
	TelegramPost(ctx context.Context, key, chat string, now time.Time) (bool, error)
}

// The club settings of the Telegram.
const (
	tgTokenSetting   = "telegram_token"         // the bot's token from BotFather (the -telegram-token flag wins)
	tgChannelSetting = "telegram_channel"       // the club's channel: @name or its numeric id; "" for none
	tgSinceSetting   = "telegram_channel_since" // Unix ms: the channel gets what happens from then on
	tgBotSetting     = "telegram_bot"           // the bot's username, as Telegram's getMe last said
	tgKeySetting     = "telegram_key"           // the buttons' HMAC key (base64, 32 random bytes)
)

// LinkCodeTTL is how long a linking code lasts.
const LinkCodeTTL = 15 * time.Minute

// ButtonTTL is how long a bot's button may be pressed.
const ButtonTTL = 7 * 24 * time.Hour

// linkAlphabet is the linking codes' letters (Crockford's base32: no I, L, O, U), 10 of them: 50 bits.
const linkAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// The bounds on guessing a code: failed attempts per chat, and in all, in linkWindow.
const (
	linkFailsPerChat = 5
	linkFailsInAll   = 200
	linkWindow       = 10 * time.Minute
)

// Telegram is the club's Telegram: its settings, the members' links, the bot's buttons and the outbox's service.
type Telegram struct {
	store  Store
	clock  *Clock
	nights *Nights

	mu        sync.Mutex
	flagToken string // the installation's -telegram-token, which wins over the setting
	key       []byte
	fails     map[int64][]time.Time // failed linking attempts per chat in the window
	allFails  []time.Time
}

// SetInstallToken sets the installation's token (-telegram-token): it wins over the club's setting.
func (t *Telegram) SetInstallToken(token string) {
	t.mu.Lock()
	t.flagToken = strings.TrimSpace(token)
	t.mu.Unlock()
}

// TelegramConfig is what the bot runs with.
type TelegramConfig struct {
	Token     string
	FromFlag  bool   // the token is the installation's (-telegram-token), not the club's setting
	Channel   string // "" for none
	Bot       string // the bot's username, "" until Telegram said it
	SinceUnix int64  // ms: the channel's posts are of what happens from then on
}

// Config is the bot's configuration now. The server's own read: no account.
func (t *Telegram) Config(ctx context.Context) (TelegramConfig, error) {
	var c TelegramConfig
	t.mu.Lock()
	c.Token = t.flagToken
	t.mu.Unlock()
	c.FromFlag = c.Token != ""
	get := func(name string) (string, error) {
		v, _, err := t.store.Setting(ctx, name)
		return v, err
	}
	var err error
	if !c.FromFlag {
		if c.Token, err = get(tgTokenSetting); err != nil {
			return c, err
		}
	}
	if c.Channel, err = get(tgChannelSetting); err != nil {
		return c, err
	}
	if c.Bot, err = get(tgBotSetting); err != nil {
		return c, err
	}
	since, err := get(tgSinceSetting)
	c.SinceUnix, _ = strconv.ParseInt(since, 10, 64)
	return c, err
}

// SetBotName keeps the bot's username, as Telegram's getMe says it (the members' deep links name it). The bot's
// own action.
func (t *Telegram) SetBotName(ctx context.Context, name string) error {
	if cur, _, err := t.store.Setting(ctx, tgBotSetting); err != nil || cur == name {
		return err
	}
	return t.store.SetSetting(ctx, tgBotSetting, name)
}

// TelegramSettings is the admin's form: the bot's token and the club's channel.
type TelegramSettings struct {
	Token       string // a new token; "" keeps the one set
	ClearToken  bool   // remove the club's token
	Channel     string
	TokenSet    bool   // (read) a token is set in the club's settings
	TokenHint   string // (read) the token's bot id, never the secret part
	FromFlag    bool   // (read) the installation's -telegram-token is in use
	Bot         string // (read) the bot's username
	ChannelFrom time.Time
}

var (
	tokenRe   = regexp.MustCompile(`^[0-9]{3,20}:[A-Za-z0-9_-]{30,100}$`)
	channelRe = regexp.MustCompile(`^(@[A-Za-z][A-Za-z0-9_]{4,31}|-100[0-9]{5,16})$`)
)

// Settings returns the club's Telegram settings, the token's secret part left out. Only an admin may.
func (t *Telegram) Settings(ctx context.Context, admin *User) (TelegramSettings, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return TelegramSettings{}, err
	}
	c, err := t.Config(ctx)
	if err != nil {
		return TelegramSettings{}, err
	}
	tok, _, err := t.store.Setting(ctx, tgTokenSetting)
	s := TelegramSettings{Channel: c.Channel, TokenSet: tok != "", FromFlag: c.FromFlag, Bot: c.Bot}
	if c.Token != "" {
		s.TokenHint, _, _ = strings.Cut(c.Token, ":")
	}
	if c.SinceUnix != 0 {
		s.ChannelFrom = time.UnixMilli(c.SinceUnix).UTC()
	}
	return s, err
}

// SetSettings sets the bot's token (a new one, or removed) and the club's channel. Only an admin may. The channel
// gets what happens from the moment it is set.
func (t *Telegram) SetSettings(ctx context.Context, admin *User, f TelegramSettings) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	tok, ch := strings.TrimSpace(f.Token), strings.TrimSpace(f.Channel)
	if strings.HasPrefix(ch, "https://t.me/") {
		ch = "@" + strings.TrimPrefix(ch, "https://t.me/")
	}
	if tok != "" && !tokenRe.MatchString(tok) {
		return Errorf(Invalid, "a bot's token as BotFather gives it, like 123456789:AAH...")
	}
	if ch != "" && !channelRe.MatchString(ch) {
		return Errorf(Invalid, "a channel as @name or its number (-100...)")
	}
	switch {
	case f.ClearToken:
		if err := t.store.SetSetting(ctx, tgTokenSetting, ""); err != nil {
			return err
		}
	case tok != "":
		if err := t.store.SetSetting(ctx, tgTokenSetting, tok); err != nil {
			return err
		}
	}
	old, _, err := t.store.Setting(ctx, tgChannelSetting)
	if err != nil || old == ch {
		return err
	}
	if err := t.store.SetSetting(ctx, tgSinceSetting, strconv.FormatInt(t.clock.Now().UnixMilli(), 10)); err != nil {
		return err
	}
	return t.store.SetSetting(ctx, tgChannelSetting, ch)
}

// codeHash is what the store keeps of a linking code.
func codeHash(code string) string {
	h := sha256.Sum256([]byte("mafiaclub telegram link\x00" + code))
	return hex.EncodeToString(h[:])
}

// NewLinkCode gives the member a one-time code that links the chat he sends it from (/start CODE, or the bot's
// deep link) to his account; it lasts LinkCodeTTL and replaces his earlier codes. Only its hash is kept.
func (t *Telegram) NewLinkCode(ctx context.Context, u *User) (code string, expires time.Time, err error) {
	if err := need(u, RoleMember); err != nil {
		return "", time.Time{}, err
	}
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", time.Time{}, err
	}
	for i := range b {
		b[i] = linkAlphabet[int(b[i])%len(linkAlphabet)] // 256 is a multiple of 32: no bias
	}
	code = string(b)
	expires = t.clock.Now().Add(LinkCodeTTL)
	return code, expires, t.store.TelegramCode(ctx, u.ID, codeHash(code), expires)
}

// ErrLinkCode refuses a wrong or expired code.
var ErrLinkCode = tgError(Invalid, "this code is wrong or has expired: take a new one on your page of the club's site")

// ErrLinkGuesses refuses a chat (or, with many chats at once, every chat) that sent too many wrong codes.
var ErrLinkGuesses = tgError(TooMany, "too many wrong codes: wait ten minutes")

// throttled reports whether chat may not try a code now, forgetting the attempts out of the window.
func (t *Telegram) throttled(chat int64, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	keep := func(ts []time.Time) []time.Time {
		out := ts[:0]
		for _, x := range ts {
			if now.Sub(x) < linkWindow {
				out = append(out, x)
			}
		}
		return out
	}
	t.allFails = keep(t.allFails)
	if t.fails == nil {
		t.fails = map[int64][]time.Time{}
	}
	if f := keep(t.fails[chat]); len(f) == 0 {
		delete(t.fails, chat)
	} else {
		t.fails[chat] = f
	}
	return len(t.fails[chat]) >= linkFailsPerChat || len(t.allFails) >= linkFailsInAll
}

func (t *Telegram) failed(chat int64, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.fails) < 50000 || t.fails[chat] != nil {
		t.fails[chat] = append(t.fails[chat], now)
	}
	t.allFails = append(t.allFails, now)
}

// LinkChat links a private chat to the account whose code it sent, using the code up. Wrong codes are counted
// per chat and in all (ErrLinkGuesses past the bound). The bot's action: the code is the account's proof.
func (t *Telegram) LinkChat(ctx context.Context, chatID int64, code string) (*User, error) {
	now := t.clock.Now()
	if t.throttled(chatID, now) {
		return nil, ErrLinkGuesses
	}
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != 10 || strings.Trim(code, linkAlphabet) != "" {
		t.failed(chatID, now)
		return nil, ErrLinkCode
	}
	id, err := t.store.TelegramLink(ctx, codeHash(code), chatID, now)
	if ErrorCode(err) == NotFound {
		t.failed(chatID, now)
		return nil, ErrLinkCode
	}
	if err != nil {
		return nil, err
	}
	return t.store.User(ctx, id)
}

// LinkOf returns the member's link, nil when he has none.
func (t *Telegram) LinkOf(ctx context.Context, u *User) (*TelegramLink, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	l, err := t.store.TelegramLinkOf(ctx, u.ID)
	if ErrorCode(err) == NotFound {
		return nil, nil
	}
	return l, err
}

// Unlink removes the member's link from the site.
func (t *Telegram) Unlink(ctx context.Context, u *User) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	return t.store.TelegramUnlink(ctx, u.ID)
}

// UnlinkChat removes a chat's link (/stop in the chat) and returns the member it was linked to.
func (t *Telegram) UnlinkChat(ctx context.Context, chatID int64) (*User, error) {
	id, err := t.store.TelegramUnlinkChat(ctx, chatID)
	if err != nil {
		return nil, err
	}
	return t.store.User(ctx, id)
}

// ErrChatNotLinked answers a chat no account is linked to.
var ErrChatNotLinked = tgError(Unauthorized, "this chat is not linked to a member of the club")

// ChatUser returns the account linked to a chat (ErrChatNotLinked for none): the bot acts for him only.
func (t *Telegram) ChatUser(ctx context.Context, chatID int64) (*User, error) {
	id, err := t.store.TelegramChatUser(ctx, chatID)
	if ErrorCode(err) == NotFound {
		return nil, ErrChatNotLinked
	}
	if err != nil {
		return nil, err
	}
	return t.store.User(ctx, id)
}

// The bot's buttons.
const (
	ButtonRegister = "r" // register for the night
	ButtonCancel   = "c" // cancel the registration
	ButtonPlace    = "p" // where he stands: the main line-up or his place in the reserve
)

// buttonKey loads the buttons' key once (or makes it) and keeps it.
func (t *Telegram) buttonKey(ctx context.Context) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.key != nil {
		return t.key, nil
	}
	v, ok, err := t.store.Setting(ctx, tgKeySetting)
	if err != nil {
		return nil, err
	}
	if !ok || v == "" {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		if err := t.store.SetSetting(ctx, tgKeySetting, base64.StdEncoding.EncodeToString(b)); err != nil {
			return nil, err
		}
		if v, _, err = t.store.Setting(ctx, tgKeySetting); err != nil {
			return nil, err
		}
	}
	key, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(key) < 16 {
		return nil, Errorf(Internal, "the club's Telegram key is not valid")
	}
	t.key = key
	return key, nil
}

func buttonMAC(key []byte, payload string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("mafiaclub telegram button\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:12])
}

// Button is a button's callback data, at most 64 bytes: the action, the night, the account, the member's latest
// registration for the night when it was drawn (0: none), its expiry (Unix minutes) and an HMAC-SHA256 of them
// under the club's key (96 bits). A button whose registration is no longer the member's latest is old: pressed, it
// says so and does nothing.
func (t *Telegram) Button(ctx context.Context, u *User, action string, nightID int64) (string, error) {
	key, err := t.buttonKey(ctx)
	if err != nil {
		return "", err
	}
	reg, err := t.latestReg(ctx, u, nightID)
	if err != nil {
		return "", err
	}
	var regID int64
	if reg != nil {
		regID = reg.ID
	}
	exp := t.clock.Now().Add(ButtonTTL).Unix() / 60
	payload := action + "." + strconv.FormatInt(nightID, 36) + "." + strconv.FormatInt(u.ID, 36) + "." +
		strconv.FormatInt(regID, 36) + "." + strconv.FormatInt(exp, 36)
	return payload + "." + buttonMAC(key, payload), nil
}

// latestReg is the member's latest registration for a night (cancelled or not), nil for none.
func (t *Telegram) latestReg(ctx context.Context, u *User, nightID int64) (*Registration, error) {
	regs, err := t.nights.Registrations(ctx, u)
	if err != nil {
		return nil, err
	}
	var last *Registration
	for i := range regs {
		if regs[i].NightID == nightID && (last == nil || regs[i].ID > last.ID) {
			last = &regs[i]
		}
	}
	return last, nil
}

// The refusals of a pressed button.
var (
	ErrButtonForged  = tgError(Forbidden, "this button is not the club's")
	ErrButtonOld     = tgError(Conflict, "this button is old: your registration for this night changed since; here it is now")
	ErrButtonExpired = tgError(Conflict, "this button has expired; here is the night now")
	ErrButtonNotYou  = tgError(Forbidden, "this button is another member's: it does nothing in this chat")
)

// NightStand is a member's standing for a night, as the bot shows it.
type NightStand struct {
	Night ClubNight
	Reg   *Registration // his latest registration (cancelled or not), nil for none
	Place int           // his place in the reserve, from 1 (0: not in it)
	Late  bool          // cancelling now would be late (a strike)
}

// Registered reports whether he is on the main line-up or the reserve.
func (s NightStand) Registered() bool { return s.Reg != nil && s.Reg.State != RegCancelled }

// Stand returns the member's standing for a night.
func (t *Telegram) Stand(ctx context.Context, u *User, nightID int64) (*NightStand, error) {
	n, err := t.nights.Night(ctx, nightID)
	if err != nil {
		return nil, err
	}
	st := &NightStand{Night: *n, Late: t.nights.CancelIsLate(*n)}
	if st.Reg, err = t.latestReg(ctx, u, nightID); err != nil {
		return nil, err
	}
	if st.Registered() && st.Reg.State == RegReserve && SeesLineUps(u) {
		regs, err := t.nights.LineUp(ctx, u, nightID)
		if err != nil {
			return nil, err
		}
		for _, r := range regs {
			if r.State == RegReserve {
				st.Place++
				if r.UserID == u.ID {
					break
				}
			}
		}
	}
	return st, nil
}

// Press acts on a button pressed in a chat: only for the account linked to that chat and named by the button,
// only with the club's signature, before its expiry, and only while the member's registration for the night is
// what it was when the button was drawn. The action goes through Nights, as the site's own does (the reserve, low
// priority, exclusion, a late cancellation's strike). It returns the member and his standing after it; a refused
// old or expired button returns them too, with the error.
func (t *Telegram) Press(ctx context.Context, chatID int64, data string) (*User, string, *NightStand, error) {
	key, err := t.buttonKey(ctx)
	if err != nil {
		return nil, "", nil, err
	}
	f := strings.Split(data, ".")
	if len(data) > 64 || len(f) != 6 || !hmac.Equal([]byte(f[5]), []byte(buttonMAC(key, strings.Join(f[:5], ".")))) {
		return nil, "", nil, ErrButtonForged
	}
	action := f[0]
	night, err1 := strconv.ParseInt(f[1], 36, 64)
	uid, err2 := strconv.ParseInt(f[2], 36, 64)
	regID, err3 := strconv.ParseInt(f[3], 36, 64)
	exp, err4 := strconv.ParseInt(f[4], 36, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return nil, "", nil, ErrButtonForged
	}
	u, err := t.ChatUser(ctx, chatID)
	if err != nil {
		return nil, action, nil, err
	}
	if u.ID != uid {
		return u, action, nil, ErrButtonNotYou
	}
	st, err := t.Stand(ctx, u, night)
	if err != nil {
		return u, action, nil, err
	}
	if t.clock.Now().Unix()/60 >= exp {
		return u, action, st, ErrButtonExpired
	}
	var cur int64
	if st.Reg != nil {
		cur = st.Reg.ID
	}
	if cur != regID && action != ButtonPlace {
		return u, action, st, ErrButtonOld
	}
	switch action {
	case ButtonRegister:
		_, err = t.nights.Register(ctx, u, night)
	case ButtonCancel:
		_, err = t.nights.Cancel(ctx, u, night)
	case ButtonPlace:
		return u, action, st, nil
	default:
		return u, action, nil, ErrButtonForged
	}
	if err != nil {
		return u, action, st, err
	}
	st, err = t.Stand(ctx, u, night)
	return u, action, st, err
}

// Upcoming lists the club nights the bot offers: not begun, not cancelled, soonest first, at most ten.
func (t *Telegram) Upcoming(ctx context.Context) ([]ClubNight, error) {
	all, err := t.nights.Upcoming(ctx)
	var out []ClubNight
	for _, n := range all {
		if !n.IsCancelled() && !t.nights.Started(n) && len(out) < 10 {
			out = append(out, n)
		}
	}
	return out, err
}

// TelegramDue lists the Telegram messages the sender should try now. The server's own action: no account.
func (t *Telegram) TelegramDue(ctx context.Context, limit int) ([]TelegramMessage, error) {
	return t.store.TelegramDue(ctx, t.clock.Now(), limit)
}

// Sent records a message as sent.
func (t *Telegram) Sent(ctx context.Context, id int64) error {
	return t.store.TelegramSent(ctx, id, t.clock.Now())
}

// MaxTelegramTries is how many sends of a message may fail before it is given up (RetryAfter's waits: about
// nine hours in all); its notice stays in the member's inbox.
const MaxTelegramTries = 15

// Failed records a failed send and puts the next off: by wait when Telegram said how long (429's retry_after),
// else as RetryAfter. After MaxTelegramTries the message is dropped with the reason.
func (t *Telegram) Failed(ctx context.Context, m TelegramMessage, reason string, wait time.Duration) error {
	reason = cut(reason)
	if m.Attempts+1 >= MaxTelegramTries {
		return t.store.TelegramDropped(ctx, m.ID, reason, t.clock.Now())
	}
	if wait <= 0 {
		wait = RetryAfter(m.Attempts + 1)
	}
	return t.store.TelegramFailed(ctx, m.ID, reason, t.clock.Now().Add(wait))
}

// Dropped gives a message up for a reason that no retry changes (a refused message); with dead, the member's chat
// is gone or he blocked the bot: his link is marked dead with the reason (his page says so) and nothing more is
// sent there until he links again.
func (t *Telegram) Dropped(ctx context.Context, m TelegramMessage, reason string, dead bool) error {
	reason = cut(reason)
	now := t.clock.Now()
	if err := t.store.TelegramDropped(ctx, m.ID, reason, now); err != nil {
		return err
	}
	if dead && m.UserID != 0 {
		if chat, err := strconv.ParseInt(m.Chat, 10, 64); err == nil {
			return t.store.TelegramLinkDead(ctx, chat, reason, now)
		}
	}
	return nil
}

func cut(reason string) string {
	if len(reason) > MaxNote {
		reason = reason[:MaxNote]
	}
	return reason
}

// Failures lists the messages that failed, newest first, for the admin's page. Only an admin may.
func (t *Telegram) Failures(ctx context.Context, admin *User) ([]TelegramMessage, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	return t.store.TelegramFailures(ctx, 100)
}

// ScanChannel queues the channel's posts of what happened since it was set, each once: every new club night, the
// line-up of each night whose registration has closed (it has begun), each saved rated game, a tournament's
// standings after each round all of whose games are saved, and each game that started. The sender's action.
func (t *Telegram) ScanChannel(ctx context.Context) (int, error) {
	c, err := t.Config(ctx)
	if err != nil || c.Channel == "" || c.Token == "" {
		return 0, err
	}
	since := time.UnixMilli(c.SinceUnix).UTC()
	now := t.clock.Now()
	queued := 0
	post := func(key string) error {
		ok, err := t.store.TelegramPost(ctx, key, c.Channel, now)
		if ok {
			queued++
		}
		return err
	}
	nights, err := t.store.Nights(ctx, now.Add(-24*time.Hour), now.AddDate(1, 0, 1))
	if err != nil {
		return 0, err
	}
	for _, n := range nights {
		if n.IsCancelled() {
			continue
		}
		if !n.CreatedAt.Before(since) && now.Before(n.StartsAt) {
			if err := post("night:" + strconv.FormatInt(n.ID, 10)); err != nil {
				return queued, err
			}
		}
		if !now.Before(n.StartsAt) && !n.StartsAt.Before(since) {
			if err := post("lineup:" + strconv.FormatInt(n.ID, 10)); err != nil {
				return queued, err
			}
		}
	}
	// the games begun in the last two days (a game is saved the evening it is played)
	games, err := t.store.Games(ctx, GameFilter{From: maxTime(since, now.Add(-48*time.Hour)), Limit: 200})
	if err != nil {
		return queued, err
	}
	rounds := map[[2]int64]bool{}
	for _, g := range games {
		if err := post("live:" + strconv.FormatInt(g.ID, 10)); err != nil {
			return queued, err
		}
		if g.Status != GameSaved {
			continue
		}
		if g.Rated {
			if err := post("result:" + strconv.FormatInt(g.ID, 10)); err != nil {
				return queued, err
			}
		}
		if g.StageID != 0 {
			rounds[[2]int64{g.StageID, int64(g.Round)}] = true
		}
	}
	for r := range rounds {
		done, err := t.roundDone(ctx, r[0], int(r[1]))
		if err != nil {
			return queued, err
		}
		if done {
			if err := post("round:" + strconv.FormatInt(r[0], 10) + ":" + strconv.FormatInt(r[1], 10)); err != nil {
				return queued, err
			}
		}
	}
	return queued, nil
}

// roundDone reports whether every table of a stage's round has its game saved.
func (t *Telegram) roundDone(ctx context.Context, stageID int64, round int) (bool, error) {
	st, err := t.store.Stage(ctx, stageID)
	if err != nil {
		return false, err
	}
	games, err := t.store.Games(ctx, GameFilter{StageID: stageID, Limit: 500})
	if err != nil {
		return false, err
	}
	saved := map[int]bool{}
	for _, g := range games {
		if g.Round == round && g.Status == GameSaved {
			saved[g.TableNo] = true
		}
	}
	return len(saved) >= st.Tables(), nil
}

// ChannelLineUp is a night's line-up for the channel's post when its registration closes: the main line-up and
// the reserve in order, by nickname. The sender's read: no account (the admin chose to post it).
func (t *Telegram) ChannelLineUp(ctx context.Context, nightID int64) (main, reserve []string, err error) {
	regs, err := t.store.Registrations(ctx, nightID)
	for _, r := range regs {
		switch {
		case r.State == RegMain && r.Status != StatusExcluded:
			main = append(main, r.Nick)
		case r.State == RegReserve && r.Status != StatusExcluded:
			reserve = append(reserve, r.Nick)
		}
	}
	return main, reserve, err
}

// ChannelStage is a stage and its tournament, for the channel's post of its standings after a round.
func (t *Telegram) ChannelStage(ctx context.Context, stageID int64) (*Stage, *Tournament, error) {
	st, err := t.store.Stage(ctx, stageID)
	if err != nil {
		return nil, nil, err
	}
	tour, err := t.store.Tournament(ctx, st.TournamentID)
	return st, tour, err
}

// tgError is a refusal whose message the catalogues translate (its Format).
func tgError(code Code, msg string) *Error { return &Error{Code: code, Message: msg, Format: msg} }

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
