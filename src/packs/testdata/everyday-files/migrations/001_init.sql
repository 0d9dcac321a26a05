CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL);
CREATE INDEX users_email ON users (email);
