package storetest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size bytes on a fresh folder for the test, unmounted when the test ends (after the
// cleanups registered later, such as closing a store opened in it), and returns the folder. When this process
// cannot mount one (not Linux, not root, or no right to mount) it returns "" and the reason.
func SmallDisk(t testing.TB, size int) (dir, why string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return "", "a tmpfs needs Linux"
	}
	if os.Geteuid() != 0 {
		return "", "mounting a tmpfs needs root"
	}
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size)+",mode=0755", "tmpfs", dir).CombinedOutput(); err != nil {
		return "", "mount: " + err.Error() + ": " + string(out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir, ""
}

// NeedSmallDisk is SmallDisk, or else a skip; under CI (root on a machine of its own) a failure, so that a green CI
// never hides the test.
func NeedSmallDisk(t testing.TB, size int) string {
	t.Helper()
	dir, why := SmallDisk(t, size)
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run this test on a small filesystem of its own: %s", why)
		}
		t.Skipf("no small filesystem for the test: %s", why)
	}
	return dir
}

// FillDisk fills the filesystem of dir to its last byte with a file of its own, and returns the function that
// removes the file again (the room comes back at once).
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatalf("filling %s: %v", dir, err)
	}
	buf := make([]byte, 64<<10)
	for {
		if _, err = f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling %s: %v, want no space left", dir, err)
	}
	removed := false
	return func() {
		if !removed {
			removed = true
			if err := os.Remove(path); err != nil {
				t.Errorf("freeing %s: %v", dir, err)
			}
		}
	}
}
