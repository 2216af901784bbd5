package web

import (
	"regexp"
	"testing"
)

// joinLines does what the regular expression it replaced did: every run of white space holding a line break
// becomes one line break, other runs stay, on the fragments' own shapes and on any bytes the fuzzer finds.
func FuzzJoinLines(f *testing.F) {
	for _, s := range []string{
		"", "a", "\n", "  \n  ", "<li>\n\t\t<b>1</b>  \r\n  \n\n  <i>x</i>\n</li>", "a  b\tc", "a \f\n\r b",
		"\n\n\n", "x\n", "\ny", "é \n ü", "a\r b", "  lead", "trail  ",
	} {
		f.Add(s)
	}
	re := regexp.MustCompile(`\s*\n\s*`)
	f.Fuzz(func(t *testing.T, s string) {
		want := string(re.ReplaceAll([]byte(s), []byte("\n")))
		if got := string(joinLines([]byte(s))); got != want {
			t.Fatalf("joinLines(%q) = %q, want %q", s, got, want)
		}
	})
}

func BenchmarkJoinLines(b *testing.B) {
	frag := []byte("<ol class=\"seats\">\n" + "      <li class=\"seat alive\">\n        <span class=\"n\">1</span>\n        <span class=\"name\">Table 1 player 1</span>\n      </li>\n")
	for range 6 {
		frag = append(frag, frag...)
	}
	buf := make([]byte, len(frag))
	b.SetBytes(int64(len(frag)))
	for b.Loop() {
		copy(buf, frag)
		joinLines(buf)
	}
}
