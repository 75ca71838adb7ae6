package sqlite

import (
	"database/sql"

	"github.com/inkwell/inkwell/ports"
)

var _ ports.PoolReporter = (*Store)(nil)

// PoolStats reports the store's two pools: "writer", whose single connection
// every write and transaction queues for, and "reader". A growing wait on the
// writer is the first sign that writes outpace the file.
func (s *Store) PoolStats() []ports.PoolStat {
	return []ports.PoolStat{poolStat("writer", s.writer.Stats()), poolStat("reader", s.reader.Stats())}
}

// poolStat translates database/sql's figures, which count waits but not
// acquisitions.
func poolStat(name string, st sql.DBStats) ports.PoolStat {
	return ports.PoolStat{
		Pool:     name,
		InUse:    int64(st.InUse),
		Idle:     int64(st.Idle),
		Open:     int64(st.OpenConnections),
		Max:      int64(st.MaxOpenConnections),
		Waits:    st.WaitCount,
		WaitTime: st.WaitDuration,
	}
}
