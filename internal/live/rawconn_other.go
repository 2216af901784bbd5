//go:build !unix

package live

import (
	"net"
	"syscall"
)

// rawConn: on this system every stream is written by its own goroutine.
func rawConn(net.Conn) syscall.RawConn { return nil }

func tryWrite(syscall.RawConn, []byte) (int, error) { return 0, syscall.EINVAL }
