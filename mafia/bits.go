package mafia

import "math/bits"

func trailing(v uint64) int { return bits.TrailingZeros64(v) }
