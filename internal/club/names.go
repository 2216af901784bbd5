package club

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lengths of the names people give, in characters. Every name shown on a page, a protocol or a CSV file is
// bounded and free of control characters.
const (
	MaxNick       = 30  // a player's nickname, a guest's name at a seat or in a tournament
	MaxRealName   = 80  // a member's real name (never public)
	MaxTitle      = 100 // a tournament's or a stage's name, a place
	MaxNote       = 500 // a club night's note, a protest, a reason
	MaxLoginChars = 40
)

// Field names a field of a form in an error message; interfaces translate it.
type Field string

// cleanName trims s and checks it: not empty unless optional, at most max characters, no control characters
// (a newline, a tab, a bidirectional override that would turn a line around). what names the field in the error.
func cleanName(s string, max int, what Field, optional bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" && !optional {
		return "", Errorf(Invalid, "give the %s", what)
	}
	if utf8.RuneCountInString(s) > max {
		return "", Errorf(Invalid, "the %[2]s has at most %[1]d characters", max, what)
	}
	if !utf8.ValidString(s) || strings.IndexFunc(s, forbiddenRune) >= 0 {
		return "", Errorf(Invalid, "the %s has a control character", what)
	}
	return s, nil
}

// cleanText is cleanName for a text of several lines: line breaks and tabs are allowed, other controls are not.
func cleanText(s string, max int, what Field, optional bool) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" && !optional {
		return "", Errorf(Invalid, "give the %s", what)
	}
	if utf8.RuneCountInString(s) > max {
		return "", Errorf(Invalid, "the %[2]s has at most %[1]d characters", max, what)
	}
	bad := func(r rune) bool { return r != '\n' && r != '\r' && r != '\t' && forbiddenRune(r) }
	if !utf8.ValidString(s) || strings.IndexFunc(s, bad) >= 0 {
		return "", Errorf(Invalid, "the %s has a control character", what)
	}
	return s, nil
}

func forbiddenRune(r rune) bool {
	return unicode.IsControl(r) || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == utf8.RuneError
}

// NickKey is the form in which two nicknames are compared: "Анна" and "анна" are one nickname.
func NickKey(nick string) string { return strings.ToLower(strings.TrimSpace(nick)) }
