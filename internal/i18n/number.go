package i18n

import "strings"

// decimalSeparators is each language's decimal separator where it is not the point: Ukrainian and Russian write
// "0,3", English "0.3".
var decimalSeparators = map[string]string{"uk": ",", "ru": ","}

// DecimalSeparator is the language's decimal separator: "," in Ukrainian and Russian, "." otherwise.
func DecimalSeparator(lang string) string {
	if s, ok := decimalSeparators[lang]; ok {
		return s
	}
	return "."
}

// Decimal writes a number given with a decimal point ("0.3", "-1.25", "+0.10", "12") as the language writes it:
// "0,3" in Ukrainian and Russian. Every number with decimals that a page shows goes through it; what a program
// reads (a form's value, CSV, JSON, the record) keeps the point.
func Decimal(lang, s string) string {
	sep := DecimalSeparator(lang)
	if sep == "." {
		return s
	}
	return strings.Replace(s, ".", sep, 1)
}

// ReadDecimal turns a number as a person may type it, with a decimal comma or point ("0,3", "-0.5"), into the
// point form a program reads ("0.3", "-0.5").
func ReadDecimal(s string) string { return strings.Replace(strings.TrimSpace(s), ",", ".", 1) }
