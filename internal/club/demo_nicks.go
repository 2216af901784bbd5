package club

import "slices"

// DemoNicks returns the nicknames of the demo club's twenty players, in the order SeedDemo creates them.
func DemoNicks() []string { return slices.Clone(demoNicks) }
