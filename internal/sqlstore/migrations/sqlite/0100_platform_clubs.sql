-- Many clubs on one installation (issue 29): the installation's own store keeps the registry of the other clubs it
-- serves, each with its own store (an SQLite file beside this one, clubs/SLUG.db, or a PostgreSQL schema of its
-- own): its slug (its address /c/SLUG/), its name as the platform lists it, and its own host name if it has one.
-- In a club's own store the table stays empty; `copy` leaves it out (the registry stays with its installation).
CREATE TABLE platform_clubs (
  slug TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  host TEXT NOT NULL DEFAULT '',
  created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX platform_clubs_host ON platform_clubs (host) WHERE host <> '';
