package telegram

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"mafiaclub/internal/club"
)

// Texts says the bot's messages in a language: the site's catalogues (internal/web implements it). Every text is
// HTML as Telegram reads it, escaped.
type Texts interface {
	// T is the catalogue's text of key in lang, escaped for Telegram's HTML.
	T(lang, key string, args ...any) string
	// Error says a refusal of the club's services in lang.
	Error(lang string, err error) string
	// Night says a club night and the member's standing for it.
	Night(lang string, st *club.NightStand) string
	// NightLine is a night in a list's button: when and where.
	NightLine(lang string, n club.ClubNight) string
	// Lang is the language the bot speaks to a member: his account's; else the one Telegram says his app has,
	// when the site has it; else the site's default.
	Lang(u *club.User, telegramLang string) string
}

// Bot answers the members' chats and buttons. It acts only through the club's services, and only for the account
// linked to the chat a message or press comes from.
type Bot struct {
	Svc   *club.Services
	Texts Texts
	Log   *slog.Logger
}

func (b *Bot) log() *slog.Logger {
	if b.Log == nil {
		return slog.Default()
	}
	return b.Log
}

// Handle answers one update through c. Updates from chats that are not private (groups, channels) are ignored:
// the bot speaks to members one by one.
func (b *Bot) Handle(ctx context.Context, c *Client, u Update) {
	var err error
	switch {
	case u.CallbackQuery != nil:
		err = b.press(ctx, c, u.CallbackQuery)
	case u.Message != nil && u.Message.Chat.Type == "private" && u.Message.From != nil:
		err = b.message(ctx, c, u.Message)
	}
	if err != nil && ctx.Err() == nil {
		b.log().Warn("telegram: an update was not answered", "update", u.UpdateID, "err", err)
	}
}

func (b *Bot) reply(ctx context.Context, c *Client, chat int64, html string, k Keyboard) error {
	_, err := c.SendMessage(ctx, strconv.FormatInt(chat, 10), html, k)
	return err
}

// message answers a command: /start CODE links the chat, /start night-ID shows a night, /nights lists them, /stop
// unlinks; anything else from a chat that is not linked is refused with how to link it.
func (b *Bot) message(ctx context.Context, c *Client, m *Message) error {
	chat := m.Chat.ID
	if m.From.ID != chat { // a private chat is its user's
		return nil
	}
	cmd, arg, _ := strings.Cut(strings.TrimSpace(m.Text), " ")
	cmd, _, _ = strings.Cut(cmd, "@") // /start@ClubBot
	arg = strings.TrimSpace(arg)
	T := b.Svc.Telegram
	user, err := T.ChatUser(ctx, chat)
	if err != nil && !errors.Is(err, club.ErrChatNotLinked) {
		return err
	}
	lang := b.Texts.Lang(user, m.From.Language)
	switch {
	case cmd == "/start" && arg != "" && !strings.HasPrefix(arg, "night-"):
		u, err := T.LinkChat(ctx, chat, arg)
		if err != nil {
			return b.reply(ctx, c, chat, b.Texts.Error(lang, err), nil)
		}
		lang = b.Texts.Lang(u, m.From.Language)
		return b.reply(ctx, c, chat, b.Texts.T(lang, "tg.linked", u.Name), Keyboard{{{Text: b.Texts.T(lang, "tg.btn.nights"), Data: "nights"}}})
	case user == nil:
		return b.reply(ctx, c, chat, b.Texts.T(lang, "tg.not_linked")+"\n\n"+b.Texts.T(lang, "tg.how_to_link"), nil)
	case cmd == "/stop":
		u, err := T.UnlinkChat(ctx, chat)
		if err != nil {
			return err
		}
		return b.reply(ctx, c, chat, b.Texts.T(lang, "tg.unlinked", u.Name), nil)
	case cmd == "/start" && strings.HasPrefix(arg, "night-"):
		id, err := strconv.ParseInt(strings.TrimPrefix(arg, "night-"), 10, 64)
		if err != nil {
			return b.reply(ctx, c, chat, b.Texts.T(lang, "tg.help"), nil)
		}
		html, k, err := b.nightView(ctx, user, lang, id)
		if err != nil {
			return b.reply(ctx, c, chat, b.Texts.Error(lang, err), nil)
		}
		return b.reply(ctx, c, chat, html, k)
	case cmd == "/nights" || cmd == "/start":
		html, k, err := b.nightsView(ctx, user, lang)
		if err != nil {
			return err
		}
		return b.reply(ctx, c, chat, html, k)
	default:
		return b.reply(ctx, c, chat, b.Texts.T(lang, "tg.help"), nil)
	}
}

// nightsView is the list of the club nights, a button each.
func (b *Bot) nightsView(ctx context.Context, u *club.User, lang string) (string, Keyboard, error) {
	nights, err := b.Svc.Telegram.Upcoming(ctx)
	if err != nil {
		return "", nil, err
	}
	if len(nights) == 0 {
		return b.Texts.T(lang, "tg.nights.none"), nil, nil
	}
	var k Keyboard
	for _, n := range nights {
		data, err := b.Svc.Telegram.Button(ctx, u, club.ButtonPlace, n.ID)
		if err != nil {
			return "", nil, err
		}
		k = append(k, []Button{{Text: b.Texts.NightLine(lang, n), Data: data}})
	}
	return b.Texts.T(lang, "tg.nights.title"), k, nil
}

// nightView is a night with the member's standing and the buttons he may press now.
func (b *Bot) nightView(ctx context.Context, u *club.User, lang string, nightID int64) (string, Keyboard, error) {
	st, err := b.Svc.Telegram.Stand(ctx, u, nightID)
	if err != nil {
		return "", nil, err
	}
	return b.standView(ctx, u, lang, st)
}

func (b *Bot) standView(ctx context.Context, u *club.User, lang string, st *club.NightStand) (string, Keyboard, error) {
	T := b.Svc.Telegram
	var row []Button
	open := !st.Night.IsCancelled() && !b.Svc.Nights.Started(st.Night)
	add := func(action, key string) error {
		data, err := T.Button(ctx, u, action, st.Night.ID)
		row = append(row, Button{Text: b.Texts.T(lang, key), Data: data})
		return err
	}
	var err error
	switch {
	case open && st.Registered():
		key := "tg.btn.cancel"
		if st.Late {
			key = "tg.btn.cancel_late"
		}
		err = errors.Join(add(club.ButtonCancel, key), add(club.ButtonPlace, "tg.btn.refresh"))
	case open:
		err = add(club.ButtonRegister, "tg.btn.register")
	}
	if err != nil {
		return "", nil, err
	}
	k := Keyboard{}
	if row != nil {
		k = append(k, row)
	}
	k = append(k, []Button{{Text: b.Texts.T(lang, "tg.btn.nights"), Data: "nights"}})
	return b.Texts.Night(lang, st), k, nil
}

// press answers a button: it acts for the account linked to the chat the button is in, and redraws the message
// as the night stands now; an old, expired, forged or another member's button is answered with the reason.
func (b *Bot) press(ctx context.Context, c *Client, q *CallbackQuery) error {
	if q.Message == nil || q.Message.Chat.Type != "private" || q.Message.Chat.ID != q.From.ID {
		return c.AnswerCallbackQuery(ctx, q.ID, b.Texts.Error(b.Texts.Lang(nil, q.From.Language), club.ErrButtonNotYou), true)
	}
	chat := q.Message.Chat.ID
	if q.Data == "nights" {
		user, err := b.Svc.Telegram.ChatUser(ctx, chat)
		lang := b.Texts.Lang(user, q.From.Language)
		if err != nil {
			return c.AnswerCallbackQuery(ctx, q.ID, b.Texts.Error(lang, err), true)
		}
		html, k, err := b.nightsView(ctx, user, lang)
		if err != nil {
			return err
		}
		return errors.Join(c.AnswerCallbackQuery(ctx, q.ID, "", false), c.EditMessageText(ctx, chat, q.Message.MessageID, html, k))
	}
	user, action, st, err := b.Svc.Telegram.Press(ctx, chat, q.Data)
	lang := b.Texts.Lang(user, q.From.Language)
	if user == nil { // a forged button: still answered in the chat's member's language
		if u, err := b.Svc.Telegram.ChatUser(ctx, chat); err == nil {
			lang = b.Texts.Lang(u, q.From.Language)
		}
	}
	answer, alert := "", false
	switch {
	case err != nil:
		answer, alert = b.Texts.Error(lang, err), true
	case action == club.ButtonRegister && st.Reg != nil && st.Reg.State == club.RegMain:
		answer = b.Texts.T(lang, "tg.done.main")
	case action == club.ButtonRegister:
		answer = b.Texts.T(lang, "tg.done.reserve", st.Place)
	case action == club.ButtonCancel && st.Reg != nil && st.Reg.Late:
		answer, alert = b.Texts.T(lang, "tg.done.cancelled_late"), true
	case action == club.ButtonCancel:
		answer = b.Texts.T(lang, "tg.done.cancelled")
	}
	if err := c.AnswerCallbackQuery(ctx, q.ID, plain(answer), alert); err != nil {
		return err
	}
	if st == nil || user == nil {
		return nil
	}
	html, k, err := b.standView(ctx, user, lang, st)
	if err != nil {
		return err
	}
	return c.EditMessageText(ctx, chat, q.Message.MessageID, html, k)
}

// plain is a text for answerCallbackQuery, which shows no HTML: the tags dropped, the entities read back.
func plain(html string) string {
	var b strings.Builder
	in := false
	for _, r := range html {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&amp;", "&").Replace(b.String())
}

// Runner runs the bot with the club's current token: long polling by default (one poller, getUpdates with its
// offset), or, with Webhook set, a webhook Telegram posts to (Handler serves it). A changed token (the admin's
// settings) is picked up within Idle.
type Runner struct {
	Bot  *Bot
	API  string       // the Bot API's address; DefaultAPI when ""
	HTTP *http.Client // nil: http.DefaultClient
	// Webhook is the site's public HTTPS address (https://club.example.org): Telegram posts the updates to
	// Webhook/telegram/SECRET with the secret in its header too. "": long polling.
	Webhook string
	Idle    time.Duration // how often a runner without a token looks again; 0 is 15 s

	mu     sync.Mutex
	client *Client
	secret string
	queue  chan Update
}

// Client is the Bot API's client for the token in use, nil while there is none.
func (r *Runner) Client() *Client {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.client
}

// secretOf is the webhook's secret for a token: a digest of it, so that it changes with the bot.
func secretOf(token string) string {
	h := sha256.Sum256([]byte("mafiaclub telegram webhook\x00" + token))
	return hex.EncodeToString(h[:16])
}

// Run runs the bot until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	idle := r.Idle
	if idle <= 0 {
		idle = 15 * time.Second
	}
	r.mu.Lock()
	if r.queue == nil {
		r.queue = make(chan Update, 100)
	}
	queue := r.queue
	r.mu.Unlock()
	var offset int64
	var token string
	backoff := time.Second
	fail := func(err error) {
		if ctx.Err() != nil {
			return
		}
		d := max(Wait(err), backoff)
		backoff = min(2*backoff, time.Minute)
		r.Bot.log().Warn("telegram: the Bot API failed; trying again", "in", d, "err", err)
		sleep(ctx, d)
	}
	for ctx.Err() == nil {
		cfg, err := r.Bot.Svc.Telegram.Config(ctx)
		if err != nil {
			fail(err)
			continue
		}
		if cfg.Token != token {
			token, offset = cfg.Token, 0
			r.mu.Lock()
			r.client, r.secret = nil, ""
			r.mu.Unlock()
			if token == "" {
				continue
			}
			c := &Client{API: r.API, Token: token, HTTP: r.HTTP}
			me, err := c.GetMe(ctx)
			if err == nil {
				err = r.Bot.Svc.Telegram.SetBotName(ctx, me.Username)
			}
			if err == nil && r.Webhook != "" {
				err = c.SetWebhook(ctx, strings.TrimRight(r.Webhook, "/")+"/telegram/"+secretOf(token), secretOf(token))
			} else if err == nil {
				err = c.DeleteWebhook(ctx) // getUpdates works only without one
			}
			if err != nil {
				token = "" // tried again
				fail(err)
				continue
			}
			r.mu.Lock()
			r.client, r.secret = c, secretOf(token)
			r.mu.Unlock()
			backoff = time.Second
		}
		c := r.Client()
		if c == nil {
			sleep(ctx, idle)
			continue
		}
		if r.Webhook != "" {
			select { // the webhook's updates, one at a time, until the token changes
			case u := <-queue:
				r.Bot.Handle(ctx, c, u)
			case <-time.After(idle):
			case <-ctx.Done():
			}
			continue
		}
		updates, err := c.GetUpdates(ctx, offset, PollTimeout)
		if err != nil {
			fail(err)
			continue
		}
		backoff = time.Second
		for _, u := range updates {
			offset = max(offset, u.UpdateID+1)
			r.Bot.Handle(ctx, c, u)
		}
		if len(updates) == 0 {
			// a long poll that came back at once with nothing (a fake or a proxy) must not spin
			sleep(ctx, 50*time.Millisecond)
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// maxUpdate bounds a webhook's update: Telegram's are a few KiB.
const maxUpdate = 1 << 20

// ServeHTTP is the webhook: POST /telegram/{secret} with the secret again in X-Telegram-Bot-Api-Secret-Token, both
// checked in constant time; the update is queued for the runner (one at a time, as the poller does) and answered
// at once, or 503 while the queue is full (Telegram sends it again).
func (r *Runner) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	secret, queue := r.secret, r.queue
	r.mu.Unlock()
	path := req.PathValue("secret")
	head := req.Header.Get("X-Telegram-Bot-Api-Secret-Token")
	if secret == "" || queue == nil || r.Webhook == "" || req.Method != http.MethodPost ||
		subtle.ConstantTimeCompare([]byte(path), []byte(secret)) != 1 || subtle.ConstantTimeCompare([]byte(head), []byte(secret)) != 1 {
		http.NotFound(w, req)
		return
	}
	var u Update
	body, err := io.ReadAll(io.LimitReader(req.Body, maxUpdate+1))
	if err != nil || len(body) > maxUpdate || json.Unmarshal(body, &u) != nil {
		http.Error(w, "bad update", http.StatusBadRequest)
		return
	}
	select {
	case queue <- u:
		w.WriteHeader(http.StatusOK)
	default:
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}
}
