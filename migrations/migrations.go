// Package migrations holds the database schema as numbered SQL files,
// embedded so the binary carries them. It is a package of its own because
// embed patterns cannot reach outside their package directory.
//
// A file, once released, is never edited: a change to the schema is a new
// file with the next number.
package migrations

import "embed"

// Files holds every NNNN_name.sql file: those at the top are plain SQL that
// SQLite and PostgreSQL both read, those under postgres/ are for PostgreSQL
// only. The store applies a database's files in order of their names.
//
//go:embed *.sql postgres/*.sql
var Files embed.FS
