package diskspace

import "syscall"

func stat(path string) (Space, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return Space{}, err
	}
	unit := uint64(st.Frsize) // the unit of the block counts; older kernels leave it 0
	if unit == 0 {
		unit = uint64(st.Bsize)
	}
	return Space{Free: uint64(st.Bavail) * unit, Total: uint64(st.Blocks) * unit}, nil
}
