package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"mafiaclub/internal/notify"
	"mafiaclub/internal/telegram"
	"mafiaclub/internal/web"
)

// telegramFlags are the club's Telegram bot's (issue 28).
func telegramFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.telegramToken, "telegram-token", os.Getenv("MAFIACLUB_TELEGRAM_TOKEN"), "the club's Telegram bot's token from BotFather; wins over the one an admin sets at /admin/telegram (MAFIACLUB_TELEGRAM_TOKEN)")
	fs.StringVar(&c.telegramAPI, "telegram-api", env("MAFIACLUB_TELEGRAM_API", telegram.DefaultAPI), "the Telegram Bot API's address (MAFIACLUB_TELEGRAM_API)")
	fs.BoolVar(&c.telegramWebhook, "telegram-webhook", os.Getenv("MAFIACLUB_TELEGRAM_WEBHOOK") == "true", "have Telegram post the bot's updates to PUBLIC-URL/telegram/SECRET instead of long polling; needs an https -public-url (MAFIACLUB_TELEGRAM_WEBHOOK=true)")
	fs.StringVar(&c.publicURL, "public-url", os.Getenv("MAFIACLUB_PUBLIC_URL"), "the site's address as members reach it, https://club.example.org: the links in the club's Telegram messages, and the webhook's (MAFIACLUB_PUBLIC_URL)")
}

// startTelegram runs the club's bot (long polling, or the webhook) and the Telegram sender until the returned
// function stops them. Both idle while the club has no token.
func startTelegram(site *web.Server, c *config, log *slog.Logger) (stop func(), err error) {
	if c.publicURL != "" {
		u, err := url.Parse(c.publicURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, fmt.Errorf("-public-url is the site's address like https://club.example.org, not %q", c.publicURL)
		}
	}
	if c.telegramWebhook && (!strings.HasPrefix(c.publicURL, "https://")) {
		return nil, fmt.Errorf("-telegram-webhook needs -public-url with https: Telegram posts to HTTPS addresses only")
	}
	if _, err := url.Parse(c.telegramAPI); err != nil || c.telegramAPI == "" {
		return nil, fmt.Errorf("-telegram-api is the Bot API's address, not %q", c.telegramAPI)
	}
	svc := site.Services()
	svc.Telegram.SetInstallToken(c.telegramToken)
	site.PublicURL = c.publicURL
	runner := &telegram.Runner{Bot: &telegram.Bot{Svc: svc, Texts: site.TelegramTexts(), Log: log}, API: c.telegramAPI}
	if c.telegramWebhook {
		runner.Webhook = c.publicURL + site.Base // a club under a prefix has its webhook there
		site.TelegramWebhook = runner
	}
	sender := &notify.TelegramSender{Telegram: svc.Telegram, Render: site.TelegramRender, API: c.telegramAPI, Log: log,
		Links: svc.Accounts, LinkRender: site.LinkText}
	ctx, cancel := context.WithCancel(context.Background())
	wait := notify.StartTelegram(ctx, sender, runner, 0)
	return func() { cancel(); wait() }, nil
}
