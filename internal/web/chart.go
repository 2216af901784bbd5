package web

import (
	"fmt"
	"strings"
	"time"
)

// chart is a player's cumulative rated points over time, drawn by the server as SVG (no script needed).
type chart struct {
	Width, Height int
	Points        string // the polyline's points
	Zero          float64
	Labels        []chartLabel
	Empty         bool
}

type chartLabel struct {
	X, Y float64
	Text string
}

// pointsChart draws the cumulative points after each rated game (hundredths) against the games' dates; label writes
// the scale's points in the page's language (Page.PointsText).
func pointsChart(cum []int, dates []time.Time, zone *time.Location, label func(int) string) chart {
	return lineChart(cum, dates, zone, true, label)
}

// lineChart draws values against dates; with zero, the scale includes 0 and its line is drawn.
func lineChart(cum []int, dates []time.Time, zone *time.Location, zero bool, label func(int) string) chart {
	c := chart{Width: 600, Height: 220}
	if len(cum) == 0 {
		c.Empty = true
		return c
	}
	const left, right, top, bottom = 48.0, 12.0, 12.0, 28.0
	lo, hi := 0, 0
	if !zero {
		lo, hi = cum[0], cum[0]
	}
	for _, v := range cum {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi == lo {
		hi = lo + 100
	}
	w, h := float64(c.Width)-left-right, float64(c.Height)-top-bottom
	t0, t1 := dates[0], dates[len(dates)-1]
	span := t1.Sub(t0).Seconds()
	x := func(i int) float64 {
		if span == 0 {
			if len(cum) == 1 {
				return left + w/2
			}
			return left + w*float64(i)/float64(len(cum)-1)
		}
		return left + w*dates[i].Sub(t0).Seconds()/span
	}
	y := func(v int) float64 { return top + h*float64(hi-v)/float64(hi-lo) }
	var pts []string
	for i, v := range cum {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
	}
	c.Points = strings.Join(pts, " ")
	c.Zero = y(0)
	if !zero {
		c.Zero = -1
	}
	c.Labels = []chartLabel{
		{X: 4, Y: y(hi) + 4, Text: label(hi)},
		{X: 4, Y: y(lo) + 4, Text: label(lo)},
		{X: left, Y: float64(c.Height) - 8, Text: t0.In(zone).Format("2006-01-02")},
	}
	if len(cum) > 1 {
		c.Labels = append(c.Labels, chartLabel{X: float64(c.Width) - right - 70, Y: float64(c.Height) - 8, Text: t1.In(zone).Format("2006-01-02")})
	}
	return c
}
