package club

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	_ "image/jpeg" // the logo's decoders
	_ "image/png"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"mafiaclub/mafia"
)

// Club is the club's identity, set by its admin: its name (with a version per language if it wants one), city, a
// short description, its logo, contacts and links, the rule set a new game starts from and whether the club's
// extras start on. It is the one entity a platform of many clubs will key everything by; today a store holds one.
// A club never set has every field empty and its defaults (Rules "", ClubExtras true): the pages then name it as
// their catalogue does.
type Club struct {
	Name  string            // the main name; "" when never set
	Names map[string]string // the name per language ("uk", "en"): optional, the main name where none is given
	City  string
	// Description is a short paragraph: the front door shows it, and every public page's meta description.
	Description string
	// Links: Site, Instagram and YouTube are http(s) addresses; Telegram is "@name" or a t.me address.
	Site, Telegram, Instagram, YouTube string
	// Rules is the rule set a new game starts from ("": mafia.DefaultRuleSetID); ClubExtras whether the club's
	// extras (the option club_extras) start on.
	Rules      string
	ClubExtras bool
	// Logo is the club's logo (PNG, JPEG or WebP; nil: none) and LogoType its content type.
	Logo     []byte
	LogoType string
	Updated  time.Time
	tag      string // LogoTag, worked out once when the identity is read or changed, not per request
}

// The bounds of the club's identity.
const (
	MaxClubName        = 100
	MaxClubDescription = 300
	MaxClubLink        = 200
	MaxLogo            = 512 << 10 // bytes
	MaxLogoSide        = 2048      // pixels, each side
)

// NewClub is a club never set: no name, the club's own rule set with its extras on.
func NewClub() *Club { return &Club{ClubExtras: true} }

// NameIn is the club's name in a language: that language's own if it has one, else the main name; "" when the club
// has no name.
func (c *Club) NameIn(lang string) string {
	if n := c.Names[lang]; n != "" {
		return n
	}
	return c.Name
}

// RulesID is the rule set a new game starts from.
func (c *Club) RulesID() string {
	if c.Rules == "" {
		return mafia.DefaultRuleSetID
	}
	return c.Rules
}

// TelegramURL is the Telegram link as an address ("@name" is https://t.me/name); "" when none.
func (c *Club) TelegramURL() string {
	if name, ok := strings.CutPrefix(c.Telegram, "@"); ok {
		return "https://t.me/" + name
	}
	return c.Telegram
}

// LogoTag is the logo's ETag (a hash of its bytes, quoted); "" without a logo.
func (c *Club) LogoTag() string {
	if c.tag == "" && len(c.Logo) > 0 {
		return logoTag(c.Logo) // a Club not kept by Clubs (a test's, a store's)
	}
	return c.tag
}

func logoTag(logo []byte) string {
	if len(logo) == 0 {
		return ""
	}
	sum := sha256.Sum256(logo)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// ClubStore keeps the club's identity.
type ClubStore interface {
	// ClubProfile returns the club's identity as stored, its logo included; a club never set is NewClub().
	ClubProfile(ctx context.Context) (*Club, error)
	// SetClubProfile stores the club's identity, its logo included (nil: none), in place of the one stored.
	SetClubProfile(ctx context.Context, c *Club) error
}

// ClubForm is an admin's change to the club's identity: every field as the form gives it; Logo nil keeps the
// logo, RemoveLogo removes it.
type ClubForm struct {
	Name                               string
	Names                              map[string]string
	City, Description                  string
	Site, Telegram, Instagram, YouTube string
	Rules                              string
	ClubExtras                         bool
	Logo                               []byte
	RemoveLogo                         bool
}

// Clubs runs the club's identity: anyone reads it (every page shows the name), only an admin changes it. It is
// kept in memory, since every page reads it: read from the store at most once per clubTTL (another server of the
// club may have changed it), and at once after a change here.
type Clubs struct {
	store Store
	clock *Clock
	mu    sync.Mutex
	cur   *Club
	read  time.Time // when cur was read from the store
}

// clubTTL is how long the identity read from the store is used before it is read again: a change made on
// another server of the club shows here within it.
const clubTTL = 30 * time.Second

// Get returns the club's identity. The value is shared: callers must not change it.
func (s *Clubs) Get(ctx context.Context) (*Club, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if s.cur != nil && now.Sub(s.read) < clubTTL {
		return s.cur, nil
	}
	c, err := s.store.ClubProfile(ctx)
	if err != nil {
		if s.cur != nil {
			return s.cur, nil // the last one read is better than no page
		}
		return nil, err
	}
	c.tag = logoTag(c.Logo)
	s.cur, s.read = c, now
	return c, nil
}

// Update changes the club's identity. Only an admin may. Every field is checked before anything is stored.
func (s *Clubs) Update(ctx context.Context, u *User, f ClubForm) (*Club, error) {
	if err := need(u, RoleAdmin); err != nil {
		return nil, err
	}
	old, err := s.store.ClubProfile(ctx)
	if err != nil {
		return nil, err
	}
	c := &Club{Logo: old.Logo, LogoType: old.LogoType, ClubExtras: f.ClubExtras, Updated: s.clock.Now()}
	if c.Name, err = cleanName(f.Name, MaxClubName, "club's name", true); err != nil {
		return nil, err
	}
	for lang, name := range f.Names {
		if !langCode.MatchString(lang) {
			return nil, Errorf(Invalid, "no such language: %s", lang)
		}
		if name, err = cleanName(name, MaxClubName, "club's name", true); err != nil {
			return nil, err
		}
		if name != "" && name != c.Name {
			if c.Names == nil {
				c.Names = map[string]string{}
			}
			c.Names[lang] = name
		}
	}
	if c.Name == "" && len(c.Names) > 0 {
		return nil, Errorf(Invalid, "give the club's main name before its names in other languages")
	}
	if c.City, err = cleanName(f.City, MaxTitle, "city", true); err != nil {
		return nil, err
	}
	if c.Description, err = cleanText(f.Description, MaxClubDescription, "description", true); err != nil {
		return nil, err
	}
	c.Description = strings.Join(strings.Fields(c.Description), " ") // one paragraph
	for _, l := range []struct {
		to   *string
		from string
		what Field
	}{{&c.Site, f.Site, "site"}, {&c.Instagram, f.Instagram, "Instagram"}, {&c.YouTube, f.YouTube, "YouTube"}} {
		if *l.to, err = cleanLink(l.from, l.what); err != nil {
			return nil, err
		}
	}
	if c.Telegram, err = cleanTelegram(f.Telegram); err != nil {
		return nil, err
	}
	if f.Rules != "" && !slices.ContainsFunc(mafia.RuleSets(), func(r *mafia.Rules) bool { return r.ID == f.Rules }) {
		return nil, Errorf(Invalid, "no such rule set: %s", f.Rules)
	}
	c.Rules = f.Rules
	switch {
	case f.RemoveLogo:
		c.Logo, c.LogoType = nil, ""
	case f.Logo != nil:
		if c.LogoType, err = checkLogo(f.Logo); err != nil {
			return nil, err
		}
		c.Logo = f.Logo
	}
	if err := s.store.SetClubProfile(ctx, c); err != nil {
		return nil, err
	}
	s.mu.Lock()
	c.tag = logoTag(c.Logo)
	s.cur, s.read = c, time.Now()
	s.mu.Unlock()
	return c, nil
}

var (
	langCode     = regexp.MustCompile(`^[a-z]{2,3}$`)
	telegramName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]{4,31}$`)
)

// cleanLink checks an address: empty, or http(s) with a host, at most MaxClubLink characters.
func cleanLink(s string, what Field) (string, error) {
	s, err := cleanName(s, MaxClubLink, what, true)
	if err != nil || s == "" {
		return s, err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", Errorf(Invalid, "the %s is an address starting with https:// or http://", what)
	}
	return s, nil
}

// cleanTelegram checks a Telegram contact: "@name" or a t.me address (https://t.me/name), stored as "@name" for a
// name and as given for any other t.me address (a group's invitation).
func cleanTelegram(s string) (string, error) {
	s, err := cleanName(s, MaxClubLink, "Telegram", true)
	if err != nil || s == "" {
		return s, err
	}
	if name, ok := strings.CutPrefix(s, "@"); ok {
		if telegramName.MatchString(name) {
			return s, nil
		}
	} else if u, err := url.Parse(s); err == nil && (u.Scheme == "https" || u.Scheme == "http") && (u.Host == "t.me" || u.Host == "telegram.me") && len(u.Path) > 1 && u.User == nil {
		if name := strings.TrimPrefix(u.Path, "/"); telegramName.MatchString(name) && u.RawQuery == "" && u.Fragment == "" {
			return "@" + name, nil
		}
		return s, nil
	}
	return "", Errorf(Invalid, "Telegram is @name or a t.me address")
}

// checkLogo checks an uploaded logo: at most MaxLogo bytes, a PNG, JPEG or WebP image that decodes, each side at
// most MaxLogoSide pixels. It returns its content type.
func checkLogo(b []byte) (string, error) {
	if len(b) > MaxLogo {
		return "", Errorf(Invalid, "the logo is larger than %d KB", MaxLogo>>10)
	}
	ct := imageType(b)
	var w, h int
	switch ct {
	case "image/png", "image/jpeg":
		cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			return "", Errorf(Invalid, "the logo is not an image that can be read")
		}
		w, h = cfg.Width, cfg.Height
		if w > 0 && h > 0 && w <= MaxLogoSide && h <= MaxLogoSide {
			if _, _, err := image.Decode(bytes.NewReader(b)); err != nil { // the whole of it, not only its header
				return "", Errorf(Invalid, "the logo is not an image that can be read")
			}
		}
	case "image/webp":
		var ok bool
		if w, h, ok = webpSize(b); !ok {
			return "", Errorf(Invalid, "the logo is not an image that can be read")
		}
	default:
		return "", Errorf(Invalid, "the logo must be a PNG, JPEG or WebP image")
	}
	if w < 1 || h < 1 || w > MaxLogoSide || h > MaxLogoSide {
		return "", Errorf(Invalid, "the logo is at most %d × %d pixels", MaxLogoSide, MaxLogoSide)
	}
	return ct, nil
}

// webpSize reads a WebP image's size from its first chunk (VP8, VP8L or VP8X; Google's container spec), checking
// that the file holds as many bytes as its header says.
func webpSize(b []byte) (w, h int, ok bool) {
	if len(b) < 30 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	if size := int(binary.LittleEndian.Uint32(b[4:8])); size+8 > len(b) || size < 22 {
		return 0, 0, false
	}
	chunk, data := string(b[12:16]), b[20:]
	switch chunk {
	case "VP8 ": // lossy: a key frame's start code, then 14-bit sizes
		if data[3] != 0x9d || data[4] != 0x01 || data[5] != 0x2a {
			return 0, 0, false
		}
		return int(binary.LittleEndian.Uint16(data[6:8]) & 0x3fff), int(binary.LittleEndian.Uint16(data[8:10]) & 0x3fff), true
	case "VP8L": // lossless: a signature byte, then 14-bit sizes less one
		if data[0] != 0x2f {
			return 0, 0, false
		}
		v := binary.LittleEndian.Uint32(data[1:5])
		return int(v&0x3fff) + 1, int(v>>14&0x3fff) + 1, true
	case "VP8X": // extended: 24-bit sizes less one
		return int(uint32(data[4])|uint32(data[5])<<8|uint32(data[6])<<16) + 1, int(uint32(data[7])|uint32(data[8])<<8|uint32(data[9])<<16) + 1, true
	}
	return 0, 0, false
}
