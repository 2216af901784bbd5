package storetest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"telegram links and outbox", telegramLinks})
}

// telegramLinks: a code links a chat once and only before it expires; a chat is one account's; a notice queues a
// Telegram message for a working link in its own transaction, never for a dead one; the outbox gives due messages,
// puts a failed one off, forgets a sent or dropped one, keeps the failures; a channel post is queued once per key;
// a cancellation drops an unsent reminder's message.
func telegramLinks(t *testing.T, s club.Store) {
	ctx := context.Background()
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	a := member(t, s, "tg-a", club.StatusActive)
	b := member(t, s, "tg-b", club.StatusActive)
	must(t, s.TelegramCode(ctx, a, "hash-a1", now.Add(15*time.Minute)))
	must(t, s.TelegramCode(ctx, a, "hash-a2", now.Add(15*time.Minute))) // replaces a1
	if _, err := s.TelegramLink(ctx, "hash-a1", 111, now); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a replaced code: %v", err)
	}
	if _, err := s.TelegramLink(ctx, "hash-a2", 111, now.Add(16*time.Minute)); club.ErrorCode(err) != club.NotFound {
		t.Errorf("an expired code: %v", err)
	}
	must(t, s.TelegramCode(ctx, a, "hash-a3", now.Add(15*time.Minute)))
	id, err := s.TelegramLink(ctx, "hash-a3", 111, now)
	must(t, err)
	if id != a {
		t.Errorf("linked %d, want %d", id, a)
	}
	if _, err := s.TelegramLink(ctx, "hash-a3", 222, now); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a code used twice: %v", err)
	}
	if u, err := s.TelegramChatUser(ctx, 111); err != nil || u != a {
		t.Errorf("chat 111: %d %v", u, err)
	}
	if _, err := s.TelegramChatUser(ctx, 999); club.ErrorCode(err) != club.NotFound {
		t.Errorf("an unknown chat: %v", err)
	}
	// b links the same chat: it is his now, and a has none
	must(t, s.TelegramCode(ctx, b, "hash-b", now.Add(time.Minute)))
	_, err = s.TelegramLink(ctx, "hash-b", 111, now)
	must(t, err)
	if _, err := s.TelegramLinkOf(ctx, a); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a's link after b took the chat: %v", err)
	}
	must(t, s.TelegramCode(ctx, a, "hash-a4", now.Add(time.Minute)))
	_, err = s.TelegramLink(ctx, "hash-a4", 333, now)
	must(t, err)

	// a notice queues a message for each working link
	admin := NewHost(t, s, "tg-admin")
	start := now.Add(72 * time.Hour)
	n := &club.ClubNight{StartsAt: start, Place: "Café", Tables: 1, PerTable: 7, CreatedBy: admin.ID}
	must(t, s.CreateNight(ctx, n))
	for _, u := range []int64{a, b} {
		_, err := s.Register(ctx, n.ID, u, now)
		must(t, err)
	}
	k, err := s.Remind(ctx, n.ID, now)
	must(t, err)
	if k != 2 {
		t.Fatalf("reminders: %d", k)
	}
	due, err := s.TelegramDue(ctx, now, 10)
	must(t, err)
	chats := map[string]club.TelegramMessage{}
	for _, m := range due {
		chats[m.Chat] = m
	}
	if len(due) != 2 || chats["333"].UserID != a || chats["111"].UserID != b || chats["333"].Notice.Kind != club.NoticeReminder ||
		chats["333"].Notice.Night.Place != "Café" || chats["333"].Lang == "" && chats["333"].Name == "" {
		t.Fatalf("due: %+v", due)
	}
	// b cancels: his unsent reminder's message goes with the e-mail's
	_, err = s.Cancel(ctx, n.ID, b, now, false)
	must(t, err)
	due, _ = s.TelegramDue(ctx, now, 10)
	if len(due) != 1 || due[0].Chat != "333" {
		t.Fatalf("due after b cancelled: %+v", due)
	}
	m := due[0]
	must(t, s.TelegramFailed(ctx, m.ID, "502 Bad Gateway", now.Add(time.Minute)))
	if due, _ := s.TelegramDue(ctx, now, 10); len(due) != 0 {
		t.Errorf("a failed message is due before its time: %+v", due)
	}
	due, _ = s.TelegramDue(ctx, now.Add(time.Minute), 10)
	if len(due) != 1 || due[0].Attempts != 1 || due[0].LastError != "502 Bad Gateway" {
		t.Fatalf("due after its wait: %+v", due)
	}
	must(t, s.TelegramSent(ctx, m.ID, now.Add(time.Minute)))
	if due, _ := s.TelegramDue(ctx, now.Add(time.Hour), 10); len(due) != 0 {
		t.Errorf("a sent message is due: %+v", due)
	}
	fails, err := s.TelegramFailures(ctx, 10)
	must(t, err)
	if len(fails) != 1 || fails[0].SentAt.IsZero() || fails[0].Attempts != 2 {
		t.Errorf("failures: %+v", fails)
	}

	// a dead link: the unsent messages are dropped with the reason, and no notice queues more
	_, err = s.Register(ctx, n.ID, b, now) // b again: no reminder now, a's is written already
	must(t, err)
	must(t, s.UpdateNight(ctx, &club.ClubNight{ID: n.ID, StartsAt: start, Place: "Bar", Tables: 1, PerTable: 7}, now))
	due, _ = s.TelegramDue(ctx, now, 10)
	if len(due) != 2 {
		t.Fatalf("the change's messages: %+v", due)
	}
	must(t, s.TelegramLinkDead(ctx, 333, "403 Forbidden: bot was blocked by the user", now))
	if l, err := s.TelegramLinkOf(ctx, a); err != nil || !l.Dead() || l.DeadReason != "403 Forbidden: bot was blocked by the user" || l.ChatID != 333 {
		t.Errorf("a's dead link: %+v %v", l, err)
	}
	if _, err := s.TelegramChatUser(ctx, 333); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a dead link's chat acts: %v", err)
	}
	due, _ = s.TelegramDue(ctx, now, 10)
	if len(due) != 1 || due[0].Chat != "111" {
		t.Errorf("due after a's link died: %+v", due)
	}
	must(t, s.TelegramDropped(ctx, due[0].ID, "400 Bad Request: chat not found", now))
	must(t, s.UpdateNight(ctx, &club.ClubNight{ID: n.ID, StartsAt: start, Place: "Club", Tables: 1, PerTable: 7}, now))
	due, _ = s.TelegramDue(ctx, now, 10)
	if len(due) != 1 || due[0].Chat != "111" { // b's link works; a's is dead
		t.Errorf("due after the second change: %+v", due)
	}
	// unlinking drops the member's unsent messages
	if u, err := s.TelegramUnlinkChat(ctx, 111); err != nil || u != b {
		t.Errorf("unlink chat 111: %d %v", u, err)
	}
	if due, _ := s.TelegramDue(ctx, now, 10); len(due) != 0 {
		t.Errorf("due after unlinking: %+v", due)
	}
	if _, err := s.TelegramUnlinkChat(ctx, 111); club.ErrorCode(err) != club.NotFound {
		t.Errorf("unlinking twice: %v", err)
	}
	must(t, s.TelegramUnlink(ctx, a))
	if _, err := s.TelegramLinkOf(ctx, a); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a's link after unlinking: %v", err)
	}

	// channel posts: once per key
	for range 2 {
		ok, err := s.TelegramPost(ctx, "night:"+strconv.FormatInt(n.ID, 10), "@club", now)
		must(t, err)
		_ = ok
	}
	due, _ = s.TelegramDue(ctx, now, 10)
	if len(due) != 1 || due[0].Post != "night:"+strconv.FormatInt(n.ID, 10) || due[0].Chat != "@club" || due[0].Notice.ID != 0 {
		t.Errorf("the post: %+v", due)
	}
	if ok, _ := s.TelegramPost(ctx, "night:"+strconv.FormatInt(n.ID, 10), "@club", now); ok {
		t.Error("a post queued twice")
	}
	fails, _ = s.TelegramFailures(ctx, 10)
	if len(fails) < 3 || fails[0].ID < fails[len(fails)-1].ID {
		t.Errorf("failures, newest first: %+v", fails)
	}
}
