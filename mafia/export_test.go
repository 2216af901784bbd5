package mafia

// CheckInvariants is checkInvariants for the external tests.
var CheckInvariants = checkInvariants

// SameGame is sameGame for the external tests.
var SameGame = sameGame
