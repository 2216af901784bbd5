package i18n

import "testing"

// TestMsgWithOneLanguage: the browser's engine holds the page's language only (and no other), and still says a
// domain message, plain or counted, in it.
func TestMsgWithOneLanguage(t *testing.T) {
	c := Catalog{"uk": {
		"msg:no action":               "дію не вибрано",
		"msg:at most %d characters.n": "one:щонайбільше %[1]d символ|few:щонайбільше %[1]d символи|many:щонайбільше %[1]d символів|other:щонайбільше %[1]d символу",
	}}
	if got, ok := c.Msg("uk", "no action"); !ok || got != "дію не вибрано" {
		t.Errorf("plain: %q %v", got, ok)
	}
	if got, ok := c.Msg("uk", "at most %d characters", 500); !ok || got != "щонайбільше 500 символів" {
		t.Errorf("counted: %q %v", got, ok)
	}
	if _, ok := c.Msg("uk", "no such message"); ok {
		t.Error("an unknown message was found")
	}
}
