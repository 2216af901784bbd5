package hostview

import (
	"embed"
	"html/template"
	"io"
)

//go:embed host.html
var templateFS embed.FS

var page = template.Must(template.New("host.html").ParseFS(templateFS, "host.html"))

// Render writes the host page's content (the element the browser's engine redraws after each action).
func Render(w io.Writer, v *View) error { return page.ExecuteTemplate(w, "host", v) }
