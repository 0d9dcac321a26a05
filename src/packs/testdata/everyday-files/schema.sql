-- schema
CREATE TABLE IF NOT EXISTS events (id bigint, at timestamptz);
INSERT INTO events VALUES (1, now());
