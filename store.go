package inkwell

import (
	"context"
	"fmt"
	"strings"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/ports"
)

// DefaultSQLitePath is where the embedded store lives when no DATABASE_URL
// is given.
const DefaultSQLitePath = "./data/inkwell.db"

// StoreConfig selects the store.
type StoreConfig struct {
	// URL is empty for the embedded SQLite file, "sqlite://PATH" for another
	// SQLite file, or a "postgres://" / "postgresql://" URL.
	URL string
}

// openStore opens the configured store, applying its migrations.
func openStore(ctx context.Context, cfg StoreConfig) (ports.Store, func(), error) {
	switch {
	case cfg.URL == "":
		return openSQLite(ctx, DefaultSQLitePath)
	case strings.HasPrefix(cfg.URL, "sqlite://"):
		return openSQLite(ctx, strings.TrimPrefix(cfg.URL, "sqlite://"))
	case strings.HasPrefix(cfg.URL, "postgres://"), strings.HasPrefix(cfg.URL, "postgresql://"):
		s, cleanup, err := postgres.Open(ctx, cfg.URL)
		if err != nil {
			return nil, nil, err
		}
		return s, cleanup, nil
	default:
		return nil, nil, fmt.Errorf("DATABASE_URL: want postgres://…, postgresql://… or sqlite://…")
	}
}

func openSQLite(ctx context.Context, path string) (ports.Store, func(), error) {
	s, cleanup, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	return s, cleanup, nil
}
