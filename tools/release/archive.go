package main

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"time"
)

// file is one file of an archive.
type file struct {
	Name string
	Mode int64
	Data []byte
}

// writeTarGz writes files into a .tar.gz under the folder dir, in the order given, every entry dated mtime and
// owned by root: the same files give the same bytes.
func writeTarGz(w io.Writer, dir string, files []file, mtime time.Time) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression) // no name and no time in gzip's header
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	hdr := func(name string, mode int64) *tar.Header {
		return &tar.Header{Name: name, Mode: mode, ModTime: mtime.UTC().Truncate(time.Second), Uname: "root", Gname: "root",
			Format: tar.FormatUSTAR}
	}
	d := hdr(dir+"/", 0o755)
	d.Typeflag = tar.TypeDir
	if err := tw.WriteHeader(d); err != nil {
		return err
	}
	for _, f := range files {
		h := hdr(dir+"/"+f.Name, f.Mode)
		h.Typeflag = tar.TypeReg
		h.Size = int64(len(f.Data))
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}
