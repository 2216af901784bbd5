package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
)

// Load reads the catalogues at the root of fsys: for each language, LANG.json and every LANG.AREA.json (one file
// per area of the site, so that work on one area does not touch another's file). A key in two files of one
// language is an error, and so is a language with no key.
func Load(fsys fs.FS) (Catalog, error) {
	c := Catalog{}
	for _, lang := range Languages {
		files, err := fs.Glob(fsys, lang+".*json")
		if err != nil {
			return nil, err
		}
		m := map[string]string{}
		for _, name := range files {
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			part := map[string]string{}
			if err := json.Unmarshal(data, &part); err != nil {
				return nil, fmt.Errorf("catalogue %s: %w", name, err)
			}
			for k, v := range part {
				if _, dup := m[k]; dup {
					return nil, fmt.Errorf("catalogue %s: the key %q is in another file of %s too", name, k, lang)
				}
				m[k] = v
			}
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("no catalogue for %s", lang)
		}
		c[lang] = m
	}
	return c, nil
}
