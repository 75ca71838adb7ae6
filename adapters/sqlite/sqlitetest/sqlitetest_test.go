package sqlitetest_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/adapters/sqlite/sqlitetest"
	"github.com/inkwell/inkwell/domain"
)

// TestPathIsAMigratedCopyOfItsOwn shows that Path hands out a database that
// is there before sqlite.Open runs, and that what
// one test writes stays out of the next copy.
func TestPathIsAMigratedCopyOfItsOwn(t *testing.T) {
	ctx := context.Background()
	first := sqlitetest.Path(t, "")
	if info, err := os.Stat(first); err != nil || info.Size() == 0 {
		t.Fatalf("Path left no migrated database at %s: %v", first, err)
	}
	st, closeStore, err := sqlite.Open(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	u := domain.User{Name: "Ada", Email: "ada@example.com", PasswordHash: "hash", CreatedAt: now, UpdatedAt: now}
	if err := st.Repos().Users.Create(ctx, &u); err != nil {
		t.Fatalf("create a user in the copy: %v", err)
	}

	second, closeSecond, err := sqlite.Open(ctx, sqlitetest.Path(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer closeSecond()
	if _, err := second.Repos().Users.ByEmail(ctx, u.Email); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the next copy holds the first one's user: ByEmail got %v, want not found", err)
	}
}
