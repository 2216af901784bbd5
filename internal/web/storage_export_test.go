package web

import "mafiaclub/internal/diskspace"

// SetDiskStat makes the site read the data folder's room from stat instead of the filesystem: a disk of any size
// and fill, for the admins' warning.
func SetDiskStat(s *Server, stat func(string) (diskspace.Space, error)) {
	s.disk.mu.Lock()
	defer s.disk.mu.Unlock()
	s.disk.stat = stat
}

// CheckDisk looks at the data folder's room now, as the minute's tick does.
func CheckDisk(s *Server) { s.checkDisk() }

// LowSpace is the room under which admins are warned, for a filesystem of total bytes.
func LowSpace(total uint64) uint64 { return lowSpace(total) }
