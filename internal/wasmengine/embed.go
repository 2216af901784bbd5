//go:build embedengine

package wasmengine

import _ "embed"

// A release build carries the engine: `go generate ./internal/wasmengine` writes dist/ (the engine, compressed
// too, so that a release starts without compressing it), and the build tag
// embedengine embeds it.

//go:embed dist/engine.wasm
var distWASM []byte

//go:embed dist/engine.wasm.gz
var distGzip []byte

//go:embed dist/engine.wasm.br
var distBrotli []byte

//go:embed dist/wasm_exec.js
var distExec []byte

func init() {
	embedded = func() (*Module, error) { return NewCompressed(distWASM, distGzip, distBrotli, distExec) }
}
