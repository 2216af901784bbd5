package main

import (
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

// debInput is what a Debian package is made of: the program, the folder packaging/ (the systemd unit, the settings
// file and the maintainer scripts) and the README.
type debInput struct {
	Version, Arch string
	Binary        string // the program built for Arch
	Packaging     string // packaging/
	Readme        string
	MTime         time.Time
}

// The package's files, as installed.
const (
	debBinary   = "/usr/bin/mafiaclub"
	debUnit     = "/lib/systemd/system/mafiaclub.service"
	debSettings = "/etc/default/mafiaclub" // a conffile: an upgrade keeps the admin's changes
	debReadme   = "/usr/share/doc/mafiaclub/README.md"
)

// writeDeb writes the Debian package with nFPM: the program, its systemd unit, the settings file read by the unit,
// the README, and the maintainer scripts that make the mafiaclub user and /var/lib/mafiaclub (postinst) and stop
// the service on removal (prerm, postrm). It depends on nothing beyond Debian's essential packages (useradd and
// groupadd are in passwd, getent in libc-bin). Every file is dated MTime, so the same input gives the same bytes.
func writeDeb(w io.Writer, in debInput) error {
	mode := func(m uint32) *files.ContentFileInfo {
		return &files.ContentFileInfo{Owner: "root", Group: "root", Mode: fsMode(m), MTime: in.MTime}
	}
	info := &nfpm.Info{
		Name:        "mafiaclub",
		Arch:        in.Arch,
		Platform:    "linux",
		Version:     in.Version,
		Section:     "web",
		Priority:    "optional",
		Maintainer:  "mafiaclub <mafiaclub@localhost>",
		Description: "the sport-Mafia club's site\nThe host's live assistant at the table with its rules engine, the club's games, ratings, club nights\nand tournaments. Settings in /etc/default/mafiaclub; the service is mafiaclub.service.",
		MTime:       in.MTime,
		Overridables: nfpm.Overridables{
			Contents: files.Contents{
				{Source: in.Binary, Destination: debBinary, FileInfo: mode(0o755)},
				{Source: filepath.Join(in.Packaging, "mafiaclub.service"), Destination: debUnit, FileInfo: mode(0o644)},
				{Source: filepath.Join(in.Packaging, "mafiaclub.default"), Destination: debSettings, Type: files.TypeConfig, FileInfo: mode(0o644)},
				{Source: in.Readme, Destination: debReadme, FileInfo: mode(0o644)},
			},
			Scripts: nfpm.Scripts{
				PostInstall: filepath.Join(in.Packaging, "postinst"),
				PreRemove:   filepath.Join(in.Packaging, "prerm"),
				PostRemove:  filepath.Join(in.Packaging, "postrm"),
			},
		},
	}
	info.DisableGlobbing = true
	return deb.Default.Package(nfpm.WithDefaults(info), w)
}

func fsMode(m uint32) fs.FileMode { return fs.FileMode(m) }
