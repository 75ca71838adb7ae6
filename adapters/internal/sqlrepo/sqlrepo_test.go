package sqlrepo

import (
	"errors"
	"slices"
	"testing"

	"github.com/inkwell/inkwell/domain"
)

// rowsOf is a result set of one int64 column.
type rowsOf struct {
	values  []int64
	at      int
	scanErr error
	err     error
}

func (r *rowsOf) Next() bool {
	r.at++
	return r.at <= len(r.values)
}

func (r *rowsOf) Scan(dest ...any) error {
	if r.scanErr != nil {
		return r.scanErr
	}
	*dest[0].(*int64) = r.values[r.at-1]
	return nil
}

func (r *rowsOf) Err() error { return r.err }

func TestScan(t *testing.T) {
	errScan, errRows, errOf := errors.New("scan"), errors.New("rows"), errors.New("of")
	tests := []struct {
		name    string
		rows    rowsOf
		of      func(int64) (int64, error)
		want    []int64
		wantErr error
	}{
		{name: "every row", rows: rowsOf{values: []int64{3, 1, 2}}, want: []int64{6, 2, 4}},
		{name: "no row is nil", rows: rowsOf{}, want: nil},
		{name: "a failed scan", rows: rowsOf{values: []int64{1}, scanErr: errScan}, wantErr: errScan},
		{name: "a failed read", rows: rowsOf{values: []int64{1}, err: errRows}, wantErr: errRows},
		{name: "of refuses a row", rows: rowsOf{values: []int64{1, 2}}, of: func(int64) (int64, error) { return 0, errOf }, wantErr: errOf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			of := tt.of
			if of == nil {
				of = func(v int64) (int64, error) { return 2 * v, nil }
			}
			var v int64
			got, err := Scan(&tt.rows, []any{&v}, func() (int64, error) { return of(v) })
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFirst(t *testing.T) {
	errRead := errors.New("read")
	if got, err := First(testBorder, "read", []int{7, 8}, nil); err != nil || got != 7 {
		t.Errorf("First of two rows = %d, %v; want 7, nil", got, err)
	}
	if _, err := First(testBorder, "read", []int{}, nil); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("First of no row: err = %v, want domain.ErrNotFound", err)
	}
	if _, err := First[int](testBorder, "read", nil, errRead); !errors.Is(err, errRead) || errors.Is(err, domain.ErrNotFound) {
		t.Errorf("First of a failed read: err = %v, want the read's error", err)
	}
}
