package mafia

import "math/bits"

func trailing(v uint32) int { return bits.TrailingZeros32(v) }
