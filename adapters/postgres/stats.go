package postgres

import "github.com/inkwell/inkwell/ports"

var _ ports.PoolReporter = (*Store)(nil)

// PoolStats reports the store's single pgx pool as "main". An acquisition
// waits when the pool is empty, either for a connection to come back or for a
// new one to be opened, so pgx's empty-acquire figures are the waits.
func (s *Store) PoolStats() []ports.PoolStat {
	st := s.pool.Stat()
	return []ports.PoolStat{{
		Pool:           "main",
		InUse:          int64(st.AcquiredConns()),
		Idle:           int64(st.IdleConns()),
		Open:           int64(st.TotalConns()),
		Max:            int64(st.MaxConns()),
		Waits:          st.EmptyAcquireCount(),
		WaitTime:       st.EmptyAcquireWaitTime(),
		CountsAcquires: true,
		Acquires:       st.AcquireCount(),
		AcquireTime:    st.AcquireDuration(),
	}}
}
