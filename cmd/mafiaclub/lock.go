package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockData takes the data folder's lock (an advisory flock on DATA/mafiaclub.lock), so that one process at a time
// owns an SQLite database: a second server, or a restore while the server runs, is refused with a clear message
// instead of two processes missing each other's updates. The lock goes with the process, however it ends.
func lockData(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	path := filepath.Join(dir, "mafiaclub.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o640)
	if err != nil {
		return nil, fmt.Errorf("data folder lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("another mafiaclub process is using the data folder %s (its lock %s is held): stop it first", dir, path)
	}
	return f, nil
}
