package wasmengine

//go:generate go run ./gen
