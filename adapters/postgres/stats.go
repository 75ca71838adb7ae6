package postgres

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/inkwell/inkwell/ports"
)

var _ ports.PoolReporter = (*Store)(nil)

// PoolStats reports the store's pgx pool as "main", and its standby's as
// "standby" when it has one. An acquisition waits when the pool is empty,
// either for a connection to come back or for a new one to be opened, so
// pgx's empty-acquire figures are the waits.
func (s *Store) PoolStats() []ports.PoolStat {
	stats := []ports.PoolStat{poolStat("main", s.pool)}
	if sb := s.reads.standby; sb != nil {
		stats = append(stats, poolStat("standby", sb.conn))
	}
	return stats
}

func poolStat(name string, pool *pgxpool.Pool) ports.PoolStat {
	st := pool.Stat()
	return ports.PoolStat{
		Pool:           name,
		InUse:          int64(st.AcquiredConns()),
		Idle:           int64(st.IdleConns()),
		Open:           int64(st.TotalConns()),
		Max:            int64(st.MaxConns()),
		Waits:          st.EmptyAcquireCount(),
		WaitTime:       st.EmptyAcquireWaitTime(),
		CountsAcquires: true,
		Acquires:       st.AcquireCount(),
		AcquireTime:    st.AcquireDuration(),
	}
}
