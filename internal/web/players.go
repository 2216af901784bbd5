package web

import (
	"fmt"
	"mafiaclub/internal/club"
	"net/http"
	"time"
)

type playerGame struct {
	club.GameResult
	Date, Role, Points string
	Rated              bool
}

type playerView struct {
	Page
	Player  *club.Player
	Rated   club.Standing
	Roles   []ratingRow
	Games   []playerGame
	Chart   chart
	Average string
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pl, res, err := s.svc.Records.Player(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = pl.Nick
	v := playerView{Page: p, Player: pl} // the public profile: no real name
	var total club.Standing
	var points []int
	var dates []time.Time
	for _, gr := range res {
		v.Games = append(v.Games, playerGame{GameResult: gr, Date: p.Time(gr.PlayedAt), Role: p.T("role." + gr.Role),
			Points: formatPoints(gr.Points), Rated: gr.Rated})
		if !gr.Rated {
			continue
		}
		total.Games++
		total.Points += gr.Points
		i := club.RoleIndex(gr.Role)
		if gr.Won {
			total.Wins++
		}
		if i >= 0 {
			total.ByRole[i].Games++
			total.ByRole[i].Points += gr.Points
			if gr.Won {
				total.ByRole[i].Wins++
			}
		}
		points = append(points, total.Points)
		dates = append(dates, gr.PlayedAt)
	}
	v.Rated = total
	v.Average = formatPoints(total.Average())
	for i, role := range club.RatingRoles {
		rs := total.ByRole[i]
		v.Roles = append(v.Roles, ratingRow{Standing: club.Standing{Nick: p.T("role." + role), Games: rs.Games, Wins: rs.Wins, Points: rs.Points},
			Total: formatPoints(rs.Points), WinRate: winRate(rs.Wins, rs.Games)})
	}
	// newest first in the list
	for i, j := 0, len(v.Games)-1; i < j; i, j = i+1, j-1 {
		v.Games[i], v.Games[j] = v.Games[j], v.Games[i]
	}
	v.Chart = pointsChart(points, dates, s.zone())
	s.render(w, "player", v)
}

func winRate(wins, games int) string {
	if games == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(wins)/float64(games))
}

// playerPhoto serves a profile photo with the type found in its content.
func (s *Server) playerPhoto(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	photo, ct, err := s.svc.Accounts.Photo(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(photo)
}
