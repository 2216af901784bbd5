-- The club's identity (issue 25): its name, the name per language (JSON: {"en": "Mafia Edmonton"}), city, a short
-- description, links, the rule set a new game starts from ('': the club's own) and whether the club's extras start
-- on, and its logo. One row, id 1, written on the first change: a platform of many clubs will key it by club.
CREATE TABLE club_profile (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  names TEXT NOT NULL DEFAULT '{}',
  city TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  site TEXT NOT NULL DEFAULT '',
  telegram TEXT NOT NULL DEFAULT '',
  instagram TEXT NOT NULL DEFAULT '',
  youtube TEXT NOT NULL DEFAULT '',
  rules TEXT NOT NULL DEFAULT '',
  club_extras INTEGER NOT NULL DEFAULT 1,
  logo BYTEA,
  logo_type TEXT NOT NULL DEFAULT '',
  updated_at BIGINT NOT NULL DEFAULT 0
);
