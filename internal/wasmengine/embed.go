//go:build embedengine

package wasmengine

import _ "embed"

// A release build carries the engine: `go generate ./internal/wasmengine` writes dist/, and the build tag
// embedengine embeds it.

//go:embed dist/engine.wasm
var distWASM []byte

//go:embed dist/wasm_exec.js
var distExec []byte

func init() { embedded = func() (*Module, error) { return New(distWASM, distExec) } }
