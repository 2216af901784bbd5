//go:build !unix

package main

// lockData does nothing where flock is not available: run one process per SQLite data folder there.
func lockData(path string) (func(), error) { return func() {}, nil }
