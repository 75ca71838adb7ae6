// Package schema embeds the SQL that sqlc reads and the stores apply: one
// folder of migrations per engine, applied in file-name order.
package schema

import "embed"

// Postgres holds postgres/migrations/*.sql.
//
//go:embed postgres/migrations/*.sql
var Postgres embed.FS

// SQLite holds sqlite/migrations/*.sql.
//
//go:embed sqlite/migrations/*.sql
var SQLite embed.FS
