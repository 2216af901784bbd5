package notify

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/telegram"
)

// TelegramRender writes a Telegram message in its language: a member's notice (his), or a channel's post (the
// club's default language). ok is false when there is nothing left to say (the post's night or game is gone).
type TelegramRender func(ctx context.Context, m club.TelegramMessage) (html string, k telegram.Keyboard, ok bool)

// TelegramSender drains the Telegram outbox: the members' notices, written in the transaction of each notice, and
// the channel's posts, queued by club.Telegram.ScanChannel. A send that fails for a while (Telegram down, 5xx, a
// timeout) is tried again with RetryAfter's growing wait, or after the wait a 429 names (retry_after); a refusal no
// retry changes is dropped with its reason, and a chat that is gone or blocked the bot (403, 400 "chat not found")
// has its link marked dead. The reasons are kept for the admin's page. No page and no host action waits for it.
type TelegramSender struct {
	Telegram *club.Telegram
	Render   TelegramRender
	API      string       // the Bot API's address; telegram.DefaultAPI when ""
	HTTP     *http.Client // nil: http.DefaultClient
	Log      *slog.Logger

	// Links, when not nil, are the accounts whose one-time links (club.LinkMessage) go to their members' chats,
	// written by LinkRender. They are sent as soon as they are asked for (StartTelegram), and once: a link that
	// fails is logged and lost (it lives in memory only), and its member asks for another.
	Links      *club.Accounts
	LinkRender func(m club.LinkMessage) (html string, k telegram.Keyboard)
}

func (s *TelegramSender) log() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}

// Drain queues the channel's new posts, then sends every message that is due, recording each outcome. It stops at
// the first failure that is not the message's own (Telegram down, a rate limit): the rest wait for their turn.
func (s *TelegramSender) Drain(ctx context.Context) {
	cfg, err := s.Telegram.Config(ctx)
	if err != nil {
		s.log().Error("telegram outbox", "err", err)
		return
	}
	if cfg.Token == "" {
		return // no bot: the messages wait (the inbox has the notices)
	}
	c := &telegram.Client{API: s.API, Token: cfg.Token, HTTP: s.HTTP}
	s.sendLinks(ctx, c)
	if _, err := s.Telegram.ScanChannel(ctx); err != nil && ctx.Err() == nil {
		s.log().Error("telegram channel", "err", err)
	}
	for ctx.Err() == nil {
		due, err := s.Telegram.TelegramDue(ctx, 20)
		if err != nil {
			if ctx.Err() == nil {
				s.log().Error("telegram outbox", "err", err)
			}
			return
		}
		if len(due) == 0 {
			return
		}
		for _, m := range due {
			stop, err := s.send(ctx, c, m)
			if err != nil {
				s.log().Error("telegram outbox", "err", err)
				return
			}
			if stop {
				return
			}
		}
	}
}

// SendLinks sends the one-time links waiting, if the club has a bot.
func (s *TelegramSender) SendLinks(ctx context.Context) {
	if s.Links == nil {
		return
	}
	cfg, err := s.Telegram.Config(ctx)
	if err != nil {
		s.log().Error("telegram links", "err", err)
		return
	}
	if cfg.Token == "" {
		return
	}
	s.sendLinks(ctx, &telegram.Client{API: s.API, Token: cfg.Token, HTTP: s.HTTP})
}

func (s *TelegramSender) sendLinks(ctx context.Context, c *telegram.Client) {
	if s.Links == nil {
		return
	}
	for ctx.Err() == nil {
		links := s.Links.LinkMessages(club.LinkTelegram, 20)
		if len(links) == 0 {
			return
		}
		for _, m := range links {
			html, k := s.LinkRender(m)
			if _, err := c.SendMessage(ctx, strconv.FormatInt(m.Chat, 10), html, k); err != nil {
				// the token is in the message, never in the log
				s.log().Warn("telegram: a one-time link was not sent", "user", m.UserID, "purpose", m.Purpose, "err", err)
				continue
			}
			s.log().Info("telegram: a one-time link was sent", "user", m.UserID, "purpose", m.Purpose)
		}
	}
}

// send sends one message and records what became of it; stop is true when the failure is Telegram's, not the
// message's.
func (s *TelegramSender) send(ctx context.Context, c *telegram.Client, m club.TelegramMessage) (stop bool, err error) {
	html, k, ok := s.Render(ctx, m)
	if !ok {
		return false, s.Telegram.Dropped(ctx, m, "nothing to send: what it told of is gone", false)
	}
	_, sendErr := c.SendMessage(ctx, m.Chat, html, k)
	switch {
	case sendErr == nil:
		return false, s.Telegram.Sent(ctx, m.ID)
	case ctx.Err() != nil:
		return true, nil // shutting down: tried again at the next start
	case telegram.Gone(sendErr):
		s.log().Warn("telegram: the chat takes no more messages; dropped", "outbox", m.ID, "chat", m.Chat, "err", sendErr)
		return false, s.Telegram.Dropped(ctx, m, sendErr.Error(), m.UserID != 0)
	case telegram.Permanent(sendErr):
		s.log().Warn("telegram: the message was refused; dropped", "outbox", m.ID, "err", sendErr)
		return false, s.Telegram.Dropped(ctx, m, sendErr.Error(), false)
	default:
		s.log().Warn("telegram: not sent; it will be tried again", "outbox", m.ID, "attempts", m.Attempts+1, "err", sendErr)
		return true, s.Telegram.Failed(ctx, m, sendErr.Error(), telegram.Wait(sendErr))
	}
}

// StartTelegram runs the Telegram sender every poll (0: 15 seconds) and, when runner is not nil, the bot, until ctx
// ends; the function it returns waits until both have stopped.
func StartTelegram(ctx context.Context, s *TelegramSender, runner *telegram.Runner, poll time.Duration) (wait func()) {
	if poll <= 0 {
		poll = 15 * time.Second
	}
	var wg sync.WaitGroup
	wg.Go(func() { every(ctx, poll, func() { s.Drain(ctx) }) })
	if s.Links != nil {
		ready := s.Links.LinksReady(club.LinkTelegram)
		wg.Go(func() { whenReady(ctx, ready, func() { s.SendLinks(ctx) }) })
	}
	if runner != nil {
		wg.Go(func() { runner.Run(ctx) })
	}
	return wg.Wait
}
