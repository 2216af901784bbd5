package sqlstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"mafiaclub/internal/club"
)

func prepareTenantFile(path string) error {
	if _, err := os.Stat(path); err == nil {
		return club.Errorf(club.Conflict, "the file %s exists already: a club's store is never shared; move it away first", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.MkdirAll(filepath.Dir(path), 0o750)
}

func removeTenantFile(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
