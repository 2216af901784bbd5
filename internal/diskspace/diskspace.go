// Package diskspace tells how much room is left on the filesystem that holds a path: the SQLite data folder's,
// for the admins' warning and for telling a full disk from other I/O errors. Linux only (statfs); elsewhere it
// answers ErrUnknown, and nothing is warned.
package diskspace

import "errors"

// Space is a filesystem's size and the room left on it for the server's writes, in bytes.
type Space struct {
	Free  uint64 // available to an unprivileged user (a root server may also use the blocks reserved for root)
	Total uint64
}

// ErrUnknown is Stat's answer on a platform where this package cannot tell.
var ErrUnknown = errors.New("free disk space is not known on this platform")

// Stat tells the room on the filesystem that holds path (a file or a folder that exists).
func Stat(path string) (Space, error) { return stat(path) }
