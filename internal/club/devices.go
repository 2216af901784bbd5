package club

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A device token is given to a browser when an account logs in on it (the web keeps it in a long-lived HttpOnly
// cookie): on that browser the login is then not held by its delay across addresses (throttle.admit), only by the
// device's own bound, so that the real user logs in on his own phone while others guess his password. The token
// names the account (its id, and its login as a keyed digest, so that the next user of a shared browser does not
// read it there), a random id of the device and when it was given, signed with HMAC-SHA256 under a key of the
// club's (deviceKeySetting, made on first use); it holds nothing of the password.

// DeviceTTL is how long a device token lasts.
const DeviceTTL = 365 * 24 * time.Hour

// deviceKeySetting is the club setting that holds the device tokens' key (base64, 32 random bytes).
const deviceKeySetting = "device_token_key"

// maxDeviceToken bounds a token read back: real ones are under 200 bytes.
const maxDeviceToken = 300

// deviceKeys loads the key once (or makes it) and keeps it.
type deviceKeys struct {
	mu  sync.Mutex
	key []byte
}

func (d *deviceKeys) get(ctx context.Context, store Store) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.key != nil {
		return d.key, nil
	}
	v, ok, err := store.Setting(ctx, deviceKeySetting)
	if err != nil {
		return nil, err
	}
	if !ok {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		if err := store.SetSetting(ctx, deviceKeySetting, base64.StdEncoding.EncodeToString(b)); err != nil {
			return nil, err
		}
		if v, ok, err = store.Setting(ctx, deviceKeySetting); err != nil || !ok { // another server may have set it first
			return nil, Errorf(Internal, "the device key was not kept: %v", err)
		}
	}
	key, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(key) < 16 {
		return nil, Errorf(Internal, "the club's device key is not valid")
	}
	d.key = key
	return key, nil
}

func deviceMAC(key []byte, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("mafiaclub device token\x00" + payload))
	return m.Sum(nil)
}

// deviceLogin is what a token keeps of its login: a digest under the key, ignoring case.
func deviceLogin(key []byte, login string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("mafiaclub device login\x00" + strings.ToLower(strings.TrimSpace(login))))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// A deviceToken is what a valid token says.
type deviceToken struct {
	userID int64
	device string // hex
	issued time.Time
	login  string // deviceLogin
}

// parseDevice checks a token's signature and age and reads it; ok is false for anything else.
func parseDevice(key []byte, token string, now time.Time) (deviceToken, bool) {
	if token == "" || len(token) > maxDeviceToken {
		return deviceToken{}, false
	}
	p64, m64, found := strings.Cut(token, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(p64)
	mac, err2 := base64.RawURLEncoding.DecodeString(m64)
	if !found || err1 != nil || err2 != nil || !hmac.Equal(mac, deviceMAC(key, string(payload))) {
		return deviceToken{}, false
	}
	f := strings.SplitN(string(payload), "|", 5)
	if len(f) != 5 || f[0] != "1" {
		return deviceToken{}, false
	}
	id, err1 := strconv.ParseInt(f[1], 10, 64)
	issued, err2 := strconv.ParseInt(f[3], 10, 64)
	t := deviceToken{userID: id, device: f[2], issued: time.Unix(issued, 0), login: f[4]}
	if err1 != nil || err2 != nil || len(t.device) != 32 || now.Sub(t.issued) >= DeviceTTL || t.issued.After(now.Add(time.Hour)) {
		return deviceToken{}, false
	}
	return t, true
}

// trustedDevice is the device id of token when it is a valid device token of login; "" otherwise (or when the
// key cannot be read: the login is then merely not trusted).
func (a *Accounts) trustedDevice(ctx context.Context, token, login string, now time.Time) string {
	device, _ := a.deviceOf(ctx, token, login, now)
	return device
}

// deviceOf is trustedDevice and the id of the account the token was given to: a device is trusted for that one
// account only (LoginOr checks that the login still names it), never for whatever account has the login later.
func (a *Accounts) deviceOf(ctx context.Context, token, login string, now time.Time) (string, int64) {
	if token == "" {
		return "", 0
	}
	key, err := a.devices.get(ctx, a.store)
	if err != nil {
		return "", 0
	}
	t, ok := parseDevice(key, token, now)
	if !ok || !hmac.Equal([]byte(t.login), []byte(deviceLogin(key, login))) {
		return "", 0
	}
	return t.device, t.userID
}

// DeviceToken returns a device token for u on the browser that sent current (its device token, "" when none):
// the same device id when current is a valid token of u, else a new one, given now for DeviceTTL. The web calls it
// after each login and keeps it in a cookie.
func (a *Accounts) DeviceToken(ctx context.Context, u *User, current string) (string, error) {
	key, err := a.devices.get(ctx, a.store)
	if err != nil {
		return "", err
	}
	now := a.clock.Now()
	device := ""
	if t, ok := parseDevice(key, current, now); ok && t.userID == u.ID {
		device = t.device
	} else {
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return "", err
		}
		device = hex.EncodeToString(b)
	}
	payload := "1|" + strconv.FormatInt(u.ID, 10) + "|" + device + "|" + strconv.FormatInt(now.Unix(), 10) + "|" +
		deviceLogin(key, u.Login)
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." +
		base64.RawURLEncoding.EncodeToString(deviceMAC(key, payload)), nil
}
