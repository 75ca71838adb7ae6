package sqlite

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"

	sqlitedrv "modernc.org/sqlite"

	"github.com/inkwell/inkwell/adapters/internal/shorttitle"
)

// shortGramsFunc is the SQL name of the function that the triggers of
// migration 0022 keep short_title_counts with: the distinct substrings of
// one and two characters of a title folded by strings.ToLower, as a JSON
// array for json_each.
const shortGramsFunc = "inkwell_short_grams"

func init() {
	sqlitedrv.MustRegisterDeterministicScalarFunction(shortGramsFunc, 1, func(_ *sqlitedrv.FunctionContext, args []driver.Value) (driver.Value, error) {
		var title string
		switch v := args[0].(type) {
		case nil:
			return "[]", nil
		case string:
			title = v
		case []byte:
			title = string(v)
		default:
			return nil, fmt.Errorf("%s: want text, got %T", shortGramsFunc, v)
		}
		grams := shorttitle.Grams(strings.ToLower(title))
		if grams == nil {
			return "[]", nil
		}
		text, err := json.Marshal(grams)
		return string(text), err
	})
}

// shortTitles returns how many published titles hold needle, already
// folded and of one or two characters (shorttitle.Kept), from the counts
// migration 0022 keeps.
func (r postViews) shortTitles(ctx context.Context, needle string) (int, error) {
	var n int
	err := r.c.readDB.QueryRowContext(ctx, `SELECT coalesce(sum(titles), 0) FROM short_title_counts WHERE gram = ?`, needle).Scan(&n)
	if err != nil {
		return 0, storeError("count published posts by short title", err)
	}
	return n, nil
}
