package club_test

import (
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

var summaryZone = time.FixedZone("club", -6*3600)

const summaryHead = "date,game,winner,seat,player,role,fouls,best_move,best_move_blacks,extras,judge_points,total\n"

// tenRows is a game of ten seats as CSV rows after the header: seat 1 red with a best move, 5, 7 and 9 black.
func tenRows(date, winner string, edit func(i int, row []string)) string {
	roles := []string{"К", "К", "Ш", "К", "Ч", "К", "Д", "К", "Ч", "К"}
	var b strings.Builder
	for i := 0; i < 10; i++ {
		row := []string{"", "", "", string(rune('1'+i%9)) + strings.Repeat("0", i/9), "Nick" + string(rune('A'+i)), roles[i], "", "", "", "", "", ""}
		if i == 9 {
			row[3] = "10"
		}
		if i == 0 {
			row[0], row[1], row[2] = date, "1", winner
		}
		if edit != nil {
			edit(i, row)
		}
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	return b.String()
}

func TestParseSummariesReadsAClubsSheet(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, summaryZone)
	csv := summaryHead + tenRows("05.03.2024 19:30", "победа красных", func(i int, row []string) {
		if i == 0 {
			row[7], row[8], row[9], row[11] = "\"5,7,9\"", "3", "0.05", "2.05"
		}
		if i == 4 {
			row[6] = "4"
		}
	})
	games, problems := club.ParseSummaries([]byte(csv), summaryZone, club.ClubRules, now)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	g := games[0]
	if g.Winner != mafia.RedWins || !g.PlayedAt.Equal(time.Date(2024, 3, 5, 19, 30, 0, 0, summaryZone)) || g.Source() != "summary:2024-03-05/1/1" {
		t.Fatalf("game: %v %v %s", g.Winner, g.PlayedAt, g.Source())
	}
	if g.Points[0].Points != 130+70+5 || g.Points[4].Points != 30-80 || !g.Seats[0].FirstKilled {
		t.Errorf("points: %d, %d; first killed %v", g.Points[0].Points, g.Points[4].Points, g.Seats[0].FirstKilled)
	}
	// the same game in JSON has the same facts
	js := `{"format": "mafiaclub-summaries", "games": [{"date": "2024-03-05", "time": "19:30", "game": 1, "winner": "red",
		"best_move": {"seat": 1, "named": [5, 7, 9]}, "seats": [` +
		`{"seat": 1, "player": "NickA", "role": "citizen", "extras": 0.05}, {"seat": 2, "player": "NickB", "role": "citizen"},
		{"seat": 3, "player": "NickC", "role": "sheriff"}, {"seat": 4, "player": "NickD", "role": "citizen"},
		{"seat": 5, "player": "NickE", "role": "mafia", "fouls": 4}, {"seat": 6, "player": "NickF", "role": "citizen"},
		{"seat": 7, "player": "NickG", "role": "don"}, {"seat": 8, "player": "NickH", "role": "citizen"},
		{"seat": 9, "player": "NickI", "role": "mafia"}, {"seat": 10, "player": "NickJ", "role": "citizen"}]}]}`
	jg, problems := club.ParseSummaries([]byte(js), summaryZone, club.ClubRules, now)
	if len(problems) > 0 {
		t.Fatalf("JSON problems: %v", problems)
	}
	if jg[0].Digest != g.Digest {
		t.Errorf("the same game differs as JSON:\n%s\n%s", jg[0].Facts, g.Facts)
	}
}

// TestParseSummariesNamesEachProblem: each bad file is refused naming its line, seat and column.
func TestParseSummariesNamesEachProblem(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, summaryZone)
	at := func(seat, col int, v string) func(int, []string) {
		return func(i int, row []string) {
			if i == seat-1 {
				row[col] = v
			}
		}
	}
	for _, tt := range []struct {
		name, file    string
		line, seat    int
		field, format string
	}{
		{"no winner column", "date,game,seat,player,role\n", 1, 0, "winner", "the column %q is missing"},
		{"unknown column", "date,game,winner,seat,player,role,colour\n", 1, 0, "colour", "unknown column %q"},
		{"a bad date", summaryHead + tenRows("32.13.2024", "red", nil), 2, 0, "date", ""},
		{"a future date", summaryHead + tenRows("2027-01-01", "red", nil), 2, 0, "date", "%q is in the future"},
		{"a bad result", summaryHead + tenRows("2024-03-05", "blue", nil), 2, 0, "winner", ""},
		{"a bad role", summaryHead + tenRows("2024-03-05", "red", at(3, 5, "X")), 4, 3, "role", "%q is not a role"},
		{"two sheriffs", summaryHead + tenRows("2024-03-05", "red", at(2, 5, "Ш")), 2, 0, "role", ""},
		{"five fouls", summaryHead + tenRows("2024-03-05", "red", at(6, 6, "5")), 7, 6, "fouls", ""},
		{"a bad decimal", summaryHead + tenRows("2024-03-05", "red", at(2, 9, "0.055")), 3, 2, "extras", ""},
		{"a black best move", summaryHead + tenRows("2024-03-05", "red", at(5, 7, "1 2")), 6, 5, "best_move", ""},
		{"wrong blacks", summaryHead + tenRows("2024-03-05", "red", func(i int, row []string) {
			if i == 0 {
				row[7], row[8] = "5 7", "3"
			}
		}), 2, 1, "best_move_blacks", ""},
		{"a host's 0.25", summaryHead + tenRows("2024-03-05", "red", at(2, 10, "0.25")), 3, 2, "judge_points", ""},
		{"a wrong total", summaryHead + tenRows("2024-03-05", "red", at(2, 11, "1,5")), 3, 2, "total", ""},
		{"a player twice", summaryHead + tenRows("2024-03-05", "red", at(2, 4, "NickA")), 3, 2, "player", ""},
		{"a seat twice", summaryHead + tenRows("2024-03-05", "red", at(2, 3, "1")), 0, 1, "seat", ""},
		{"an unknown rule set", "date,game,winner,seat,player,role,rules\n2024-03-05,1,red,1,A,К,mafia-2000\n", 2, 0, "rules", ""},
		{"the game twice", summaryHead + tenRows("2024-03-05", "red", nil) + tenRows("05.03.2024", "red", nil), 12, 0, "game", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := club.ParseSummaries([]byte(tt.file), summaryZone, club.ClubRules, now)
			if len(problems) == 0 {
				t.Fatal("taken")
			}
			p := problems[0]
			if (tt.line != 0 && p.Line != tt.line) || p.Seat != tt.seat || p.Field != tt.field || (tt.format != "" && p.Format != tt.format) {
				t.Errorf("got line %d seat %d field %q: %v", p.Line, p.Seat, p.Field, p)
			}
		})
	}
}
