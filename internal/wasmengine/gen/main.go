// Command gen writes the engine compiled to WebAssembly and its loader into internal/wasmengine/dist, for a
// release build with the tag embedengine. Run it through `go generate ./internal/wasmengine`.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"mafiaclub/internal/wasmengine"
)

func main() {
	dir, err := os.Getwd() // go generate runs in the package's folder
	if err == nil {
		err = wasmengine.Generate(context.Background(), filepath.Join(dir, "..", ".."), filepath.Join(dir, "dist"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
