package web

import (
	"net/http"

	"mafiaclub/internal/club"
)

// The front door's lengths: the nights, live games, rating lines and games it shows.
const (
	homeNights = 5
	homeLive   = 10
	homeTop    = 10
	homeGames  = 5
)

type homeNight struct {
	club.ClubNight
	When       string
	Left       int // places left in the main line-up (0: the reserve only)
	Mine       club.RegState
	Registered bool
	Late       bool
	Started    bool
	MyPlace    int // the member's place in the reserve (from 1), 0 when he is not in it
}

type homeLink struct{ Label, URL, ID string }

// homeGame is a saved game with its rule set's title in the page's language.
type homeGame struct {
	club.Game
	RulesTitle string
}

type homeView struct {
	Page
	Links      []homeLink
	Nights     []homeNight // the next nights that take place, for everyone
	Live       liveListView
	Top        []club.Standing
	Latest     []homeGame
	Tournament *club.Tournament
	Running    bool // the tournament is on today (else it is the next one)

	// a member's own
	Member  bool
	Mine    []homeNight // his registrations for the nights to come
	MyGames []club.Game
	MyLine  *club.Standing
	// a host's own
	Tonight []homeNight // tonight's nights: a game starts from their registrations
	MyLive  []club.Game // his games in progress
}

// home is the front door (/). Everyone sees the club (its description and links), the next club nights with the
// places left (a visitor is shown the way to register: sign up first), the games live now, the rating's top ten,
// the latest games with their winners and the current tournament. A member sees his next registrations (his place
// in the reserve), his unread notices (the menu's count), his latest games and his rating line; a host tonight's
// nights to start a game from and his games in progress. It reads the rating's lines the services keep per version
// of the ratings, and a few short lists: one query each.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p := s.page(r)
	p.Title = p.T("home.page_title")
	v := homeView{Page: p, Links: clubLinks(p)}
	upcoming, err := s.upcoming(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	live, err := s.svc.Live.Now(ctx, homeLive)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	leaders, err := s.svc.Records.Leaders(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Top = leaders.Top(homeTop)
	for _, g := range leaders.Latest[:min(homeGames, len(leaders.Latest))] {
		v.Latest = append(v.Latest, homeGame{Game: g, RulesTitle: ruleTitle(p, g.Rules)})
	}
	tours, err := s.svc.Tournaments.List(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	today := s.now().In(s.zone()).Format("2006-01-02")
	v.Tournament, v.Running = currentTournament(tours, today)
	for _, g := range live {
		it := liveListItem{ID: g.ID, Host: g.HostName}
		switch {
		case g.StageID != 0:
			it.Where = p.T("live.where_table", g.TableNo, g.Round)
		case g.NightID != 0:
			it.Where = p.T("live.where_night", g.NightID)
		}
		v.Live.Games = append(v.Live.Games, it)
	}
	v.Live.P = p

	// the member's registrations, by night
	mine := map[int64]club.Registration{}
	if p.User != nil {
		v.Member = true
		regs, err := s.svc.Nights.Registrations(ctx, p.User)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, reg := range regs {
			if reg.State != club.RegCancelled {
				mine[reg.NightID] = reg
			}
		}
	}
	for _, n := range upcoming {
		if n.IsCancelled() {
			continue
		}
		hn := homeNight{ClubNight: n, When: p.Time(n.StartsAt), Left: max(0, n.MainSize()-n.Main), Late: s.svc.Nights.CancelIsLate(n),
			Started: s.svc.Nights.Started(n)}
		if reg, ok := mine[n.ID]; ok {
			hn.Mine, hn.Registered = reg.State, true
			if reg.State == club.RegReserve {
				hn.MyPlace = s.reservePlace(r, n.ID)
			}
			v.Mine = append(v.Mine, hn)
		}
		if p.IsHost() && n.StartsAt.In(s.zone()).Format("2006-01-02") == today {
			v.Tonight = append(v.Tonight, hn)
		}
		if !hn.Started && len(v.Nights) < homeNights {
			v.Nights = append(v.Nights, hn)
		}
	}
	if p.User != nil && p.User.PlayerID != 0 {
		if v.MyGames, err = s.svc.Records.History(ctx, club.GameFilter{PlayerID: p.User.PlayerID, Limit: homeGames}); err != nil {
			s.fail(w, r, err)
			return
		}
		if st, ok := leaders.Of(p.User.PlayerID); ok {
			v.MyLine = &st
		}
	}
	if p.IsHost() {
		for _, g := range live {
			if g.HostID == p.User.ID {
				v.MyLive = append(v.MyLive, g)
			}
		}
	}
	w.Header().Set("Cache-Control", "no-store") // places and live games change by the minute
	s.render(w, "home", v)
}

// reservePlace is the member's place in a night's reserve (from 1); 0 when it cannot be read.
func (s *Server) reservePlace(r *http.Request, nightID int64) int {
	u := currentUser(r)
	regs, err := s.svc.Nights.LineUp(r.Context(), u, nightID)
	if err != nil {
		return 0
	}
	n := 0
	for _, reg := range regs {
		if reg.State == club.RegReserve {
			n++
			if reg.UserID == u.ID {
				return n
			}
		}
	}
	return 0
}

// currentTournament is the tournament on today, else the next one to begin; nil when there is neither.
func currentTournament(list []club.Tournament, today string) (*club.Tournament, bool) {
	var next *club.Tournament
	for i := range list {
		t := &list[i]
		end := t.EndsOn
		if end == "" {
			end = t.StartsOn
		}
		if t.StartsOn <= today && today <= end {
			return t, true
		}
		if t.StartsOn > today && (next == nil || t.StartsOn < next.StartsOn) {
			next = t
		}
	}
	return next, false
}

// clubLinks are the club's site and networks, as the front door lists them.
func clubLinks(p Page) []homeLink {
	c := p.Club
	var out []homeLink
	for _, l := range []homeLink{{p.T("club.site"), c.Site, "link-site"}, {"Telegram", c.TelegramURL(), "link-telegram"},
		{"Instagram", c.Instagram, "link-instagram"}, {"YouTube", c.YouTube, "link-youtube"}} {
		if l.URL != "" {
			out = append(out, l)
		}
	}
	return out
}
