package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestSynchronous reads the synchronous setting back from both pools: FULL
// unless Open is told otherwise, since only FULL keeps an acknowledged
// write through a power loss.
func TestSynchronous(t *testing.T) {
	// PRAGMA synchronous answers 1 for NORMAL and 2 for FULL.
	for _, tc := range []struct {
		name string
		opts []Option
		want int
	}{
		{"default", nil, 2},
		{"full", []Option{WithSynchronous(SynchronousFull)}, 2},
		{"normal", []Option{WithSynchronous(SynchronousNormal)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, cleanup, err := Open(ctx, filepath.Join(t.TempDir(), "inkwell.db"), tc.opts...)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer cleanup()
			var writer, reader int
			if err := st.writer.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&writer); err != nil {
				t.Fatal(err)
			}
			if err := st.reader.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&reader); err != nil {
				t.Fatal(err)
			}
			if writer != tc.want || reader != tc.want {
				t.Errorf("PRAGMA synchronous: got %d on the writer and %d on a reader, want %d", writer, reader, tc.want)
			}
		})
	}

	_, _, err := Open(context.Background(), filepath.Join(t.TempDir(), "inkwell.db"), WithSynchronous("OFF"))
	if err == nil {
		t.Error("Open with synchronous OFF: got no error")
	}
}

// TestWithoutAutoCheckpoint reads the writer's automatic checkpoint back:
// SQLite's 1,000 pages unless the backup checkpoints instead.
func TestWithoutAutoCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
		want int
	}{
		{"default", nil, 1000},
		{"backup", []Option{WithoutAutoCheckpoint()}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, cleanup, err := Open(ctx, filepath.Join(t.TempDir(), "inkwell.db"), tc.opts...)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer cleanup()
			var got int
			if err := st.writer.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("PRAGMA wal_autocheckpoint on the writer: got %d, want %d", got, tc.want)
			}
		})
	}
}
