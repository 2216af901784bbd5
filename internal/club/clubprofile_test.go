package club_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"mafiaclub/internal/club"
)

// pngOf is a w × h PNG image.
func pngOf(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// webpOf is the start of a lossless WebP file of w × h pixels (its header only, padded): what the size check reads.
func webpOf(w, h int) []byte {
	b := make([]byte, 64)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	copy(b[8:], "WEBPVP8L")
	binary.LittleEndian.PutUint32(b[16:], 30)
	b[20] = 0x2f
	binary.LittleEndian.PutUint32(b[21:], uint32(w-1)|uint32(h-1)<<14)
	return b
}

// TestClubIdentity: only an admin changes the club's identity; every field is checked (lengths, http(s) links,
// Telegram as @name or t.me, a known rule set, a logo that is a bounded PNG, JPEG or WebP image) and a refusal
// changes nothing; the name per language falls back to the main name; Get sees a change at once.
func TestClubIdentity(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c, err := f.svc.Club.Get(ctx)
	f.must(err)
	if c.Name != "" || c.NameIn("en") != "" || c.RulesID() != "fiim-2025-club" || !c.ClubExtras {
		t.Fatalf("a club never set: %+v", c)
	}
	good := club.ClubForm{Name: " Мафія Едмонтон ", Names: map[string]string{"en": "Mafia Edmonton", "uk": "Мафія Едмонтон", "ru": ""},
		City: "Edmonton", Description: "Спортивна мафія\nщоп'ятниці.", Site: "https://mafia.example.org", Telegram: "https://t.me/mafia_edm",
		Instagram: "http://instagram.com/x", Rules: "fsm-2026", ClubExtras: false, Logo: pngOf(64, 32)}
	if _, err := f.svc.Club.Update(ctx, f.users["host"], good); club.ErrorCode(err) != club.Forbidden {
		t.Errorf("a host changes the club: %v", err)
	}
	if _, err := f.svc.Club.Update(ctx, nil, good); club.ErrorCode(err) != club.Unauthorized {
		t.Errorf("nobody changes the club: %v", err)
	}
	jpg := func() []byte {
		var b bytes.Buffer
		jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 10, 10)), nil)
		return b.Bytes()
	}()
	for _, bad := range []struct {
		name string
		edit func(*club.ClubForm)
		want string
	}{
		{"a long name", func(f *club.ClubForm) { f.Name = strings.Repeat("я", 101) }, "at most 100"},
		{"a name with a tab", func(f *club.ClubForm) { f.Name = "a\tb" }, "control character"},
		{"a long English name", func(f *club.ClubForm) { f.Names["en"] = strings.Repeat("x", 101) }, "at most 100"},
		{"a language that is no code", func(f *club.ClubForm) { f.Names["English"] = "x" }, "no such language"},
		{"names without the main one", func(f *club.ClubForm) { f.Name = "" }, "main name"},
		{"a long description", func(f *club.ClubForm) { f.Description = strings.Repeat("a ", 151) }, "at most 300"},
		{"a javascript link", func(f *club.ClubForm) { f.Site = "javascript:alert(1)" }, "https://"},
		{"a link without a host", func(f *club.ClubForm) { f.YouTube = "https:///x" }, "https://"},
		{"a link with a password", func(f *club.ClubForm) { f.Instagram = "https://a:b@instagram.com/" }, "https://"},
		{"a Telegram name too short", func(f *club.ClubForm) { f.Telegram = "@abc" }, "Telegram"},
		{"a Telegram link elsewhere", func(f *club.ClubForm) { f.Telegram = "https://evil.example/mafia_edm" }, "Telegram"},
		{"an unknown rule set", func(f *club.ClubForm) { f.Rules = "poker" }, "rule set"},
		{"a logo too large", func(f *club.ClubForm) { f.Logo = append(pngOf(8, 8), make([]byte, club.MaxLogo)...) }, "larger than 512 KB"},
		{"a logo that is no image", func(f *club.ClubForm) { f.Logo = []byte("GIF89a......") }, "PNG, JPEG or WebP"},
		{"a broken PNG", func(f *club.ClubForm) { f.Logo = pngOf(64, 64)[:60] }, "can be read"},
		{"a logo too wide", func(f *club.ClubForm) { f.Logo = pngOf(2049, 1) }, "2048"},
		{"a WebP too tall", func(f *club.ClubForm) { f.Logo = webpOf(10, 4000) }, "2048"},
		{"a WebP cut short", func(f *club.ClubForm) { f.Logo = webpOf(10, 10)[:40] }, "can be read"},
	} {
		form := good
		form.Names = map[string]string{"en": "Mafia Edmonton"}
		bad.edit(&form)
		if _, err := f.svc.Club.Update(ctx, f.users["admin"], form); club.ErrorCode(err) != club.Invalid || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want a refusal saying %q", bad.name, err, bad.want)
		}
	}
	if c, _ := f.svc.Club.Get(ctx); c.Name != "" {
		t.Fatalf("a refused change was stored: %+v", c)
	}
	if _, err := f.svc.Club.Update(ctx, f.users["admin"], good); err != nil {
		t.Fatal(err)
	}
	c, _ = f.svc.Club.Get(ctx)
	if c.Name != "Мафія Едмонтон" || c.NameIn("en") != "Mafia Edmonton" || c.NameIn("uk") != "Мафія Едмонтон" || c.NameIn("ru") != "Мафія Едмонтон" ||
		len(c.Names) != 1 {
		t.Errorf("the names: %q %v", c.Name, c.Names)
	}
	if c.Telegram != "@mafia_edm" || c.TelegramURL() != "https://t.me/mafia_edm" || c.Description != "Спортивна мафія щоп'ятниці." {
		t.Errorf("Telegram %q, description %q", c.Telegram, c.Description)
	}
	if c.RulesID() != "fsm-2026" || c.ClubExtras || c.LogoType != "image/png" || c.LogoTag() == "" {
		t.Errorf("rules %q, extras %v, logo %q %q", c.RulesID(), c.ClubExtras, c.LogoType, c.LogoTag())
	}
	stored, _ := f.db.ClubProfile(ctx)
	if stored.Name != c.Name || !bytes.Equal(stored.Logo, good.Logo) {
		t.Errorf("the store holds %+v", stored)
	}
	// a change without a new logo keeps it; a JPEG and a WebP are logos too; removing it removes it
	keep := good
	keep.Logo, keep.City = nil, "Calgary"
	if c, _ = f.svc.Club.Update(ctx, f.users["admin"], keep); c == nil || !bytes.Equal(c.Logo, good.Logo) || c.City != "Calgary" {
		t.Errorf("a change without a logo: %+v", c)
	}
	for _, logo := range [][]byte{jpg, webpOf(300, 200)} {
		keep.Logo = logo
		if c, err = f.svc.Club.Update(ctx, f.users["admin"], keep); err != nil {
			t.Errorf("a logo of %d bytes: %v", len(logo), err)
		}
	}
	if c.LogoType != "image/webp" {
		t.Errorf("the WebP logo's type: %q", c.LogoType)
	}
	keep.Logo, keep.RemoveLogo = nil, true
	if c, _ = f.svc.Club.Update(ctx, f.users["admin"], keep); c == nil || c.Logo != nil || c.LogoTag() != "" {
		t.Errorf("the logo removed: %+v", c)
	}
}
