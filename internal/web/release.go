package web

// A binary without the host page's engine (neither a release that carries it nor run from a checkout that can
// build it) serves host pages by plain form posts only: the program logs it at start and the admins' pages say it,
// with how to get a release (the README's "Installing a club's server").

// SetEngineMissing tells the admins' pages that host pages have no engine in the browser (true), or have one again.
func (s *Server) SetEngineMissing(missing bool) { s.engineMissing.Store(missing) }

// engineWarning is the admins' banner in lang while the host pages have no engine, "" otherwise.
func (s *Server) engineWarning(lang string) string {
	if !s.engineMissing.Load() || s.engine.Load() != nil {
		return ""
	}
	return s.Catalog.T(lang, "release.engine_missing")
}
