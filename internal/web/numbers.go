package web

import (
	"fmt"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/internal/i18n"
)

// A page writes every number with decimals as its language does, through i18n.Decimal: "1,30" and "+0,30" in
// Ukrainian and Russian, "1.30" in English (issue 24). What programs read keeps the point: the CSV and JSON exports,
// the record, the values of forms (formatPoints, record.FormatPoints).

// PointsText writes hundredths as the page's language writes points: "1,30" in Ukrainian, "1.30" in English.
func (p Page) PointsText(h int) string { return hostview.PointsIn(p.Lang, h) }

// SignedText writes hundredths with a sign as the page's language does: "+0,30", "-0,10".
func (p Page) SignedText(h int) string { return hostview.SignedIn(p.Lang, h) }

// Decimal writes a number formatted with a decimal point ("0.94", "20") as the page's language writes it.
func (p Page) Decimal(s string) string { return i18n.Decimal(p.Lang, s) }

// MB writes a size in megabytes with one decimal in the page's language: "1,5 MB".
func (p Page) MB(n int64) string { return p.Decimal(fmt.Sprintf("%.1f MB", float64(n)/(1<<20))) }

// RulesName is a rule set's name in the page's language, from its id ("fiim-2025-club"): what a list of games shows
// (the id only for a rule set the engine does not know).
func (p Page) RulesName(id string) string { return ruleTitle(p, id) }

// perGameText is a count per game with two decimals in the page's language ("0,25"), "—" without games.
func (p Page) perGameText(n, games int) string {
	if games == 0 {
		return "—"
	}
	return p.Decimal(fmt.Sprintf("%.2f", club.Share(n, games)))
}
