package storetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"club profile", clubProfile})
}

// SampleClub is a club's identity with every field set, its names in two languages and a logo of the bytes given.
func SampleClub(logo []byte) *club.Club {
	return &club.Club{Name: "Мафія Едмонтон", Names: map[string]string{"en": "Mafia Edmonton", "ru": "Мафия Эдмонтон"}, City: "Edmonton",
		Description: "Спортивна мафія щоп'ятниці: «рейтинг», турніри, 'лапки'.", Site: "https://mafia.example.org/", Telegram: "@mafia_edm",
		Instagram: "https://instagram.com/mafia.edm", YouTube: "https://youtube.com/@mafiaedm", Rules: "fsm-2026", ClubExtras: false,
		Logo: logo, LogoType: "image/png", Updated: time.UnixMilli(1780000000123).UTC()}
}

// SameClub reports what differs between two identities ("" when none).
func SameClub(got, want *club.Club) string {
	switch {
	case got.Name != want.Name || got.City != want.City || got.Description != want.Description:
		return "the name, city or description"
	case len(got.Names) != len(want.Names) || got.NameIn("en") != want.NameIn("en") || got.NameIn("ru") != want.NameIn("ru") || got.NameIn("uk") != want.NameIn("uk"):
		return "the names per language"
	case got.Site != want.Site || got.Telegram != want.Telegram || got.Instagram != want.Instagram || got.YouTube != want.YouTube:
		return "the links"
	case got.Rules != want.Rules || got.ClubExtras != want.ClubExtras:
		return "the rule set or the club's extras"
	case !bytes.Equal(got.Logo, want.Logo) || got.LogoType != want.LogoType:
		return "the logo"
	case !got.Updated.Equal(want.Updated):
		return "the time of the change"
	}
	return ""
}

// clubProfile: a club never set reads as club.NewClub(); every field reads back as written, the logo byte for
// byte; a second write replaces the first; a logo removed is gone.
func clubProfile(t *testing.T, s club.Store) {
	ctx := context.Background()
	c, err := s.ClubProfile(ctx)
	must(t, err)
	if d := SameClub(c, club.NewClub()); d != "" {
		t.Fatalf("a club never set differs from NewClub in %s: %+v", d, c)
	}
	logo := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 40000)...)
	want := SampleClub(logo)
	must(t, s.SetClubProfile(ctx, want))
	got, err := s.ClubProfile(ctx)
	must(t, err)
	if d := SameClub(got, want); d != "" {
		t.Errorf("read back, %s differs: %+v", d, got)
	}
	second := &club.Club{Name: "Mafia", ClubExtras: true}
	must(t, s.SetClubProfile(ctx, second))
	got, err = s.ClubProfile(ctx)
	must(t, err)
	if d := SameClub(got, second); d != "" {
		t.Errorf("after a second write, %s differs: %+v", d, got)
	}
}
