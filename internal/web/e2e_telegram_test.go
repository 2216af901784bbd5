package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/telegram"
	"mafiaclub/internal/telegram/telegramtest"
)

// In a real browser: a member links his Telegram from /me (the code and the bot's deep link on the page), the bot
// links the chat he sends the code from, and he unlinks it on /me/telegram after the page's confirmation.
func TestE2ETelegramLink(t *testing.T) {
	needBrowser(t)
	site := startSite(t, time.UTC, nil)
	defer site.checkLog(t)
	ctx := context.Background()
	svc := site.Site.Services()
	admin, _ := site.DB.UserByLogin(ctx, club.DemoAdminLogin)
	if err := svc.Telegram.SetSettings(ctx, admin, club.TelegramSettings{Token: tgToken}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Telegram.SetBotName(ctx, telegramtest.BotName); err != nil {
		t.Fatal(err)
	}
	hash, _ := club.HashPassword("password-anna")
	if err := site.DB.CreateMember(ctx, &club.User{Login: "anna", Name: "anna", Role: club.RoleMember, PasswordHash: hash, Status: club.StatusActive, Lang: "en"},
		&club.Player{Nick: "Anna"}); err != nil {
		t.Fatal(err)
	}
	fake := telegramtest.New(t, tgToken)
	bot := &telegram.Bot{Svc: svc, Texts: site.Site.TelegramTexts(), Log: site.Site.Log}
	cat := mustCatalog(t)

	bctx, bcancel := startBrowser(t)
	defer bcancel()
	deadline := time.AfterFunc(90*time.Second, bcancel)
	defer deadline.Stop()
	p := newPerson(t, bctx, site.URL, "anna")
	defer p.report()
	p.logIn("/me", "anna", "password-anna")
	p.wantText("#link-telegram", cat.T("en", "tg.link"))
	p.submit("link Telegram", "#link-telegram")
	code := strings.TrimPrefix(p.text("#tg-code"), "/start ")
	if len(code) != 10 {
		t.Fatalf("the code on the page: %q", p.text("#tg-code"))
	}
	if href := eval[string](p, `document.getElementById('tg-deep').href`); href != "https://t.me/"+telegramtest.BotName+"?start="+code {
		t.Errorf("the deep link: %q", href)
	}
	bot.Handle(ctx, &telegram.Client{API: fake.URL, Token: tgToken}, telegramtest.Text(6001, "en", "/start "+code))
	if got := fake.Last("6001").Text; !strings.Contains(got, "linked to anna") {
		t.Fatalf("the bot's answer: %q", got)
	}
	p.open("/me/telegram")
	if p.count("#tg-linked") != 1 {
		t.Fatal("/me/telegram does not say the chat is linked")
	}
	p.submit("unlink", "#tg-unlink")
	if d := p.dialogMessages(); len(d) != 1 || d[0] != cat.T("en", "tg.unlink_confirm") {
		t.Errorf("the confirmation asked: %q", d)
	}
	if p.count("#tg-none") != 1 {
		t.Errorf("after unlinking the page says: %s", p.text("main"))
	}
	if _, err := svc.Telegram.ChatUser(ctx, 6001); err == nil {
		t.Error("the chat is still linked")
	}
}
