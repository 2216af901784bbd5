package mafia

// Role is a player's card.
type Role uint8

// The roles of the record format (spec section 1).
const (
	NoRole Role = iota
	Citizen
	Sheriff
	Mafia
	Don
	Commissar
	Doctor
	numRoles
)

var roleNames = [numRoles]string{"", "citizen", "sheriff", "mafia", "don", "commissar", "doctor"}

// String is the role's name in the record format.
func (r Role) String() string {
	if r < numRoles {
		return roleNames[r]
	}
	return "role?"
}

// ParseRole returns the role with the given record name.
func ParseRole(s string) (Role, bool) {
	for r := Citizen; r < numRoles; r++ {
		if roleNames[r] == s {
			return r, true
		}
	}
	return NoRole, false
}

// Letter is the protocol letter of the role (seed 002 §P7.4.1): К citizen, Ч mafia, Ш sheriff, Д don.
// Home roles use their own initials.
func (r Role) Letter() string {
	switch r {
	case Citizen:
		return "К"
	case Mafia:
		return "Ч"
	case Sheriff:
		return "Ш"
	case Don:
		return "Д"
	case Commissar:
		return "Ком"
	case Doctor:
		return "Лік"
	}
	return "?"
}

// Team is a side of the game.
type Team uint8

// The two teams (matrix R03): red are the citizens, the sheriff, the commissar and the doctor; black are the
// mafia and the don.
const (
	NoTeam Team = iota
	Red
	Black
)

// String is the team's name in the record format.
func (t Team) String() string {
	switch t {
	case Red:
		return "red"
	case Black:
		return "black"
	}
	return ""
}

// Team returns the side the role plays for. The doctor's team is not stated by seed 001; he protects the town,
// so he is red.
func (r Role) Team() Team {
	switch r {
	case Mafia, Don:
		return Black
	case Citizen, Sheriff, Commissar, Doctor:
		return Red
	}
	return NoTeam
}

// Winner is the result of a game.
type Winner uint8

// The results of a game.
const (
	NoWinner Winner = iota
	RedWins
	BlackWins
	Draw
)

// String is the winner's name in the record format ("" while the game goes on).
func (w Winner) String() string {
	switch w {
	case RedWins:
		return "red"
	case BlackWins:
		return "black"
	case Draw:
		return "draw"
	}
	return ""
}
