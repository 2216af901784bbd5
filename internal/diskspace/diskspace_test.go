package diskspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestStat: the room on a filesystem of a known size, a tmpfs of 4 MiB (as root), or else on the test's folder;
// a file written there takes its size off the room left.
func TestStat(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := Stat("."); err != ErrUnknown {
			t.Fatalf("Stat on %s: %v, want ErrUnknown", runtime.GOOS, err)
		}
		return
	}
	dir := t.TempDir()
	mounted := false
	if os.Geteuid() == 0 {
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).CombinedOutput(); err == nil {
			mounted = true
			t.Cleanup(func() { exec.Command("umount", dir).Run() })
		} else {
			t.Logf("no tmpfs (%v %s): the test's own folder instead", err, out)
		}
	}
	before, err := Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if before.Total == 0 || before.Free > before.Total {
		t.Fatalf("%+v: a filesystem has a size and at most that much room", before)
	}
	if !mounted {
		return
	}
	if before.Total != 4<<20 || before.Free != 4<<20 {
		t.Fatalf("an empty tmpfs of 4 MiB: %+v", before)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	after, err := Stat(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	if after.Free != 3<<20 {
		t.Errorf("after writing 1 MiB: %+v, want 3 MiB free", after)
	}
	if _, err := Stat(filepath.Join(dir, "none")); err == nil {
		t.Error("a path that does not exist: no error")
	}
}
