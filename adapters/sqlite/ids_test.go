package sqlite

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	schema "github.com/inkwell/inkwell/sql"
)

// TestAutoincrementMigration upgrades a database made by the migrations
// before 0012, holding accounts, tokens, sessions, posts, comments,
// webhooks and area B records, as a real upgrade does: every row keeps its
// id, dropping the old users table takes none of the rows that refer to it,
// the indexes, triggers and counters still work, and ids no longer come
// back after the newest row is deleted.
func TestAutoincrementMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "inkwell.db")
	old, err := openPool(path, connParams)
	if err != nil {
		t.Fatal(err)
	}
	old.SetMaxOpenConns(1)
	entries, err := fs.ReadDir(schema.SQLite, migrationsDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.ExecContext(ctx, `CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER)`); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() < "0012" {
			if err := applyMigration(ctx, old, e.Name()); err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
		}
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC).UnixMicro()
	for _, stmt := range []string{
		`INSERT INTO users (id, name, email, email_key, password_hash, created_at, updated_at) VALUES
			(1, 'Ann', 'ann@example.com', 'ann@example.com', 'x', %[1]d, %[1]d),
			(2, 'Bob', 'bob@example.com', 'bob@example.com', 'x', %[1]d, %[1]d),
			(5, 'Cat', 'cat@example.com', 'cat@example.com', 'x', %[1]d, %[1]d)`,
		`INSERT INTO personal_access_tokens (id, user_id, name, token_hash, abilities, created_at, updated_at) VALUES
			(1, 1, 'a', 'h1', '["*"]', %[1]d, %[1]d), (7, 5, 'c', 'h7', '["*"]', %[1]d, %[1]d)`,
		`INSERT INTO sessions (id_hash, user_id, csrf_token, last_activity, created_at) VALUES ('s5', 5, 'c', %[1]d, %[1]d)`,
		`INSERT INTO posts (id, author_id, title, slug, excerpt, body, status, published_at, created_at, updated_at) VALUES
			(1, 5, 'Cat one', 'cat-one', '', 'b', 'published', %[1]d, %[1]d, %[1]d),
			(2, 5, 'Cat two', 'cat-two', '', 'b', 'draft', NULL, %[1]d, %[1]d),
			(3, 1, 'Ann one', 'ann-one', '', 'b', 'published', %[1]d, %[1]d, %[1]d)`,
		`INSERT INTO comments (id, post_id, user_id, body, created_at, updated_at) VALUES (1, 3, 5, 'hi', %[1]d, %[1]d)`,
		`INSERT INTO webhooks (id, user_id, url, events, secret, failures, disabled_reason, created_at, updated_at) VALUES
			(1, 5, 'https://example.com', '["post.created"]', 's', 0, '', %[1]d, %[1]d)`,
		`INSERT INTO people (id, name, email, email_key, created_at, updated_at) VALUES
			(1, 'Pat', 'pat@example.com', 'pat@example.com', %[1]d, %[1]d), (4, 'Sam', 'sam@example.com', 'sam@example.com', %[1]d, %[1]d)`,
		`INSERT INTO products (id, name, price_cents, sku, created_at, updated_at) VALUES
			(2, 'Pen', 150, 'PEN', %[1]d, %[1]d), (3, 'Ink', 90, NULL, %[1]d, %[1]d)`,
	} {
		if _, err := old.ExecContext(ctx, fmt.Sprintf(stmt, now)); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	old.Close()

	s := openForCounts(t, path) // applies 0012
	count := func(query string) int {
		t.Helper()
		var n int
		if err := s.writer.QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return n
	}
	for query, want := range map[string]int{
		`SELECT group_concat(id) = '1,2,5' FROM (SELECT id FROM users ORDER BY id)`:                1,
		`SELECT group_concat(id) = '1,7' FROM (SELECT id FROM personal_access_tokens ORDER BY id)`: 1,
		`SELECT group_concat(id) = '1,4' FROM (SELECT id FROM people ORDER BY id)`:                 1,
		`SELECT group_concat(id) = '2,3' FROM (SELECT id FROM products ORDER BY id)`:               1,
		`SELECT count(*) FROM posts WHERE author_id = 5`:                                           2,
		`SELECT count(*) FROM comments`:                                                            1,
		`SELECT count(*) FROM sessions WHERE user_id = 5`:                                          1,
		`SELECT count(*) FROM sessions WHERE user_id = 5 AND kind = 'api'`:                         1,
		`SELECT count(*) FROM webhooks WHERE user_id = 5`:                                          1,
		`SELECT count(*) FROM pragma_foreign_key_check`:                                            0,
		`SELECT foreign_keys FROM pragma_foreign_keys`:                                             1,
		`SELECT seq FROM sqlite_sequence WHERE name = 'users'`:                                     5,
		`SELECT seq FROM sqlite_sequence WHERE name = 'personal_access_tokens'`:                    7,
		`SELECT seq FROM sqlite_sequence WHERE name = 'people'`:                                    4,
		`SELECT seq FROM sqlite_sequence WHERE name = 'products'`:                                  3,
		`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN ('users_email_key', 'personal_access_tokens_token_hash',
			'personal_access_tokens_user_id', 'personal_access_tokens_expires_at', 'people_email_key', 'products_sku')`: 6,
		`SELECT count(*) FROM sqlite_schema WHERE name LIKE '%\_new' ESCAPE '\'`: 0,
	} {
		if got := count(query); got != want {
			t.Errorf("%s: got %d, want %d", strings.Join(strings.Fields(query), " "), got, want)
		}
	}
	for _, table := range []string{"users", "personal_access_tokens", "people", "products"} {
		var sql string
		if err := s.writer.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE name = ?`, table).Scan(&sql); err != nil || !strings.Contains(sql, "AUTOINCREMENT") {
			t.Errorf("%s: got %q, %v; want it AUTOINCREMENT", table, sql, err)
		}
	}

	// Deleting the newest user cascades as before, to the rows that refer
	// to it and through the triggers to the counters; its id stays taken.
	r := s.Repos()
	if err := r.Users.Delete(ctx, 5); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]int{
		`SELECT count(*) FROM posts WHERE author_id = 5`:                           0,
		`SELECT count(*) FROM personal_access_tokens WHERE user_id = 5`:            0,
		`SELECT count(*) FROM sessions WHERE user_id = 5`:                          0,
		`SELECT count(*) FROM comments`:                                            0,
		`SELECT count(*) FROM webhooks`:                                            0,
		`SELECT sum(published) FROM post_counts`:                                   1,
		`SELECT count(*) FROM published_titles WHERE published_titles MATCH 'cat'`: 0,
	} {
		if got := count(query); got != want {
			t.Errorf("after deleting user 5: %s: got %d, want %d", query, got, want)
		}
	}
	u := domain.User{Name: "Dan", Email: "dan@example.com", PasswordHash: "x", CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := r.Users.Create(ctx, &u); err != nil || u.ID != 6 {
		t.Errorf("a user created after deleting the newest: got id %d, %v; want 6", u.ID, err)
	}
	p := domain.Product{Name: "Nib", PriceCents: 10, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := r.Products.Delete(ctx, 3); err != nil {
		t.Fatal(err)
	}
	if err := r.Products.Create(ctx, &p); err != nil || p.ID != 4 {
		t.Errorf("a product created after deleting the newest: got id %d, %v; want 4", p.ID, err)
	}
}
