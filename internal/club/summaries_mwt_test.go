package club_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

const mwtDir = "../convert/testdata/mwt"

// firstShootingNight is the engine's number of the first night with shots (night 1 is the acquaintance).
const firstShootingNight = 2

// A foreign MWT game (mafiaratings' convert_game_to_mwt's output of our generated games, no mafiaclub field) is
// read as a summary whose facts are those of the game it came from, and whose points, where MWT's facts say
// enough, are the replay's.
func TestParseSummariesReadsForeignMWT(t *testing.T) {
	zone, err := time.LoadLocation("America/Edmonton")
	if err != nil {
		t.Skip(err)
	}
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, zone)
	files, _ := filepath.Glob(filepath.Join(mwtDir, "gen*.mwt.json"))
	if len(files) < 20 {
		t.Fatalf("only %d MWT files", len(files))
	}
	samePoints := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".mwt.json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		recData, err := os.ReadFile(filepath.Join(mwtDir, name+".rec.json"))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Decode(recData)
		if err != nil {
			t.Fatal(err)
		}
		g, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		games, problems := club.ParseSummaries(data, zone, rec.Rules.ID, now)
		if len(problems) > 0 {
			t.Errorf("%s: refused: %v", name, problems)
			continue
		}
		if len(games) != 1 {
			t.Fatalf("%s: %d games", name, len(games))
		}
		s := games[0]
		if s.Winner != g.Winner() {
			t.Errorf("%s: winner %v, the game's %v", name, s.Winner, g.Winner())
		}
		if s.Source() != "summary:2026-07-15/1/1" || s.PlayedAt.Format("2006-01-02 15:04") != "2026-07-15 19:00" {
			t.Errorf("%s: the game is %s at %v", name, s.Source(), s.PlayedAt)
		}
		bestMove, firstKilled := 0, 0
		var named []int
		for _, e := range rec.EngineEvents() {
			switch e.Type {
			case mafia.EvBestMove:
				bestMove, named = int(e.Seat), nil
				for _, x := range e.Targets[:e.NTargets] {
					named = append(named, int(x))
				}
			}
		}
		firstNight := 0
		for _, sr := range g.Result().Seats {
			if sr.Out.How == mafia.OutKilled && (firstNight == 0 || int(sr.Out.Number) < firstNight) {
				firstKilled, firstNight = sr.Seat, int(sr.Out.Number)
			}
		}
		if firstNight != firstShootingNight {
			firstKilled = 0 // the first night's shots missed: nobody was killed first (MWT's killed_first)
		}
		var gotDQ []int
		for i, st := range s.Seats {
			seat := i + 1
			if st.Role != g.Role(seat) || st.Fouls != g.Fouls(seat) || st.Player != "MWT "+strconv.Itoa(101000+seat) {
				t.Errorf("%s: seat %d is %s %v with %d fouls, the game's %v with %d", name, seat, st.Player, st.Role, st.Fouls, g.Role(seat), g.Fouls(seat))
			}
			if st.Disqualified {
				gotDQ = append(gotDQ, seat)
			}
			if st.FirstKilled != (seat == firstKilled) {
				t.Errorf("%s: seat %d first killed %v, the game's first victim %d", name, seat, st.FirstKilled, firstKilled)
			}
		}
		// MWT records a removal as the way a player left (a player voted out and removed in his last words left
		// by the vote), and a 4th foul's removal is a disqualification already
		var wantDQ []int
		for _, sr := range g.Result().Seats {
			if (sr.Out.How == mafia.OutDisqualified || sr.Out.How == mafia.OutTeamLoss) && g.Fouls(sr.Seat) < 4 {
				wantDQ = append(wantDQ, sr.Seat)
			}
		}
		slices.Sort(wantDQ)
		if !slices.Equal(gotDQ, wantDQ) {
			t.Errorf("%s: disqualified %v, the game removed %v", name, gotDQ, wantDQ)
		}
		if bestMove != firstKilled {
			bestMove, named = 0, nil // MWT has the first night's victim's best move only
		}
		if s.BestMove != bestMove || !slices.Equal(s.BestNamed, named) {
			t.Errorf("%s: best move %d %v, the game's %d %v", name, s.BestMove, s.BestNamed, bestMove, named)
		}
		// a seat's points are the replay's unless the replay scored him an item MWT holds no fact for (the 2025
		// club extras of votes and nominations, a removal in the last words after the vote)
		replayed := g.Result().Seats
		same := true
		for i := range replayed {
			if replayed[i].Points == s.Points[i].Points {
				continue
			}
			same = false
			has := map[mafia.Item]bool{}
			for _, it := range s.Points[i].Score {
				has[it.Item] = true
			}
			var unknown []string
			for _, it := range replayed[i].Score {
				if !has[it.Item] && it.Points != 0 {
					unknown = append(unknown, it.Item.String())
				}
			}
			if len(unknown) == 0 {
				t.Errorf("%s: seat %d: the summary gives %d, the replay %d, from the same items (%v / %v)", name, i+1, s.Points[i].Points, replayed[i].Points, s.Points[i].Score, replayed[i].Score)
			}
		}
		if same {
			samePoints++
		}
	}
	t.Logf("%d of %d games: the same points as the replay", samePoints, len(files))
	if samePoints < len(files)/2 {
		t.Errorf("only %d of %d games have the replay's points", samePoints, len(files))
	}
}

// A bad MWT game is refused naming the game, the seat and MWT's field, in words the catalogues translate; our own
// export (the whole game in its mafiaclub field) is sent to the game import, where it replays.
func TestParseSummariesRefusesBadMWT(t *testing.T) {
	zone, _ := time.LoadLocation("America/Edmonton")
	if zone == nil {
		zone = time.UTC
	}
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, zone)
	good, err := os.ReadFile(filepath.Join(mwtDir, "gen00.mwt.json"))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(from, to string) string {
		if !strings.Contains(string(good), from) {
			t.Fatalf("gen00 has no %q", from)
		}
		return strings.Replace(string(good), from, to, 1)
	}
	cat, err := i18n.Load(os.DirFS("../web/i18n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, file   string
		game, seat   int
		field, words string
	}{
		{"an unknown role", edit(`"red", "red", "black"`, `"red", "wizard", "black"`), 1, 4, "result.player_roles[3]", "unknown role"},
		{"the second game without a start", "[" + string(good) + "," + edit(`"start_time": "2026-07-15 19:00:00",`, "") + "]", 2, 0, "result.start_time", "missing"},
		{"a seat without a player", edit(`"101004"`, "null"), 1, 4, "result.players[3]", "no player at seat 4"},
		{"a leave without its round", edit(`"nights_before_count": 0,
            "days_before_count": 1,`, ""), 1, 0, "result.leaves[0]", "neither how many nights"},
		{"our own export", edit(`"result": `, `"mafiaclub": {"mafiaratings": {}}, "result": `), 1, 0, "mafiaclub", "/admin/import"},
	} {
		games, problems := club.ParseSummaries([]byte(c.file), zone, "fiim-xcraft", now)
		if len(games) > 0 || len(problems) != 1 {
			t.Errorf("%s: %d games, problems %v", c.name, len(games), problems)
			continue
		}
		p := problems[0]
		if p.Game != c.game || p.Seat != c.seat || p.Field != c.field || !strings.Contains(p.Error(), c.words) {
			t.Errorf("%s: game %d, seat %d, field %q: %v; want game %d, seat %d, field %q saying %q", c.name, p.Game, p.Seat, p.Field, p, c.game, c.seat, c.field, c.words)
		}
		for _, lang := range []string{"uk", "en", "ru"} {
			if _, ok := cat[lang]["msg:"+p.Format]; !ok {
				t.Errorf("%s: no %s translation of %q", c.name, lang, p.Format)
			}
		}
	}
}
