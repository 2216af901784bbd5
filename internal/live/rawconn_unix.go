//go:build unix

package live

import (
	"net"
	"syscall"
)

// rawConn is conn's file descriptor for writes that do not wait, nil when conn has none (TLS, a pipe).
func rawConn(conn net.Conn) syscall.RawConn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}

// tryWrite writes b to raw once, without waiting for the socket to take it: n is what it took (0 on an error;
// syscall.EAGAIN when its buffer was full).
func tryWrite(raw syscall.RawConn, b []byte) (n int, err error) {
	if werr := raw.Write(func(fd uintptr) bool {
		n, err = syscall.Write(int(fd), b)
		return true // never wait for the socket: the stream's own goroutine does that
	}); werr != nil {
		return 0, werr
	}
	return max(n, 0), err
}
