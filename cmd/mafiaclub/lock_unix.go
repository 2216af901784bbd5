//go:build unix

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockData takes the lock of an SQLite database's folder: the file path (next to the database) held with flock
// while the process lives. The kernel lets go of it when the process ends, however it ends. A second process on
// the same folder is refused: its pages would miss the first one's live updates.
func lockData(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		who := ""
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				who = fmt.Sprintf(" (process %d)", pid)
			}
		}
		f.Close()
		return nil, fmt.Errorf("another mafiaclub%s is already serving this SQLite database (it holds %s); "+
			"one process owns an SQLite data folder: stop the other one, or use PostgreSQL (-db postgres://...) to run several servers", who, path)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { f.Close() }, nil
}
