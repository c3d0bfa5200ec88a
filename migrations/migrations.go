// Package migrations holds the database schema as numbered SQL files,
// embedded so the binary carries them. It is a package of its own because
// embed patterns cannot reach outside their package directory.
//
// A file, once released, is never edited: a change to the schema is a new
// file with the next number.
package migrations

import "embed"

// Files holds every NNNN_name.sql file; the store applies them in name order.
//
//go:embed *.sql
var Files embed.FS
