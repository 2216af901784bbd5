-- One person, several clubs (issue 29, item 2): in the installation's own store, the people who play in its clubs
-- with one account for all of them: a person's login (unique ignoring case, as a club's logins are) and password
-- hash, his sessions (read by every club's site on the installation's host names), and his memberships: for each
-- club he joined ('' for the installation's own club), that club's account of him in that club's own store (its
-- status, role, strikes and player profile are the club's, as every member's). One membership per person and club;
-- a club's account belongs to at most one person. In a club's own store these tables stay empty; `copy` leaves them
-- out (the person stays with the installation, a club moving out takes its own rows).
CREATE TABLE persons (
  id INTEGER PRIMARY KEY,
  login TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE person_sessions (
  token_hash BLOB PRIMARY KEY,
  person_id INTEGER NOT NULL REFERENCES persons (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
);
CREATE INDEX person_sessions_person ON person_sessions (person_id);

CREATE TABLE person_clubs (
  person_id INTEGER NOT NULL REFERENCES persons (id) ON DELETE CASCADE,
  club TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (person_id, club)
);
CREATE UNIQUE INDEX person_clubs_user ON person_clubs (club, user_id);
