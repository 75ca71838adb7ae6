package httpapi

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/inkwell/inkwell/ports"
)

// backupBehind is why the service is not ready for want of its backup: a
// lag beyond BackupMaxLag, or a replica whose state cannot be read; empty
// when there is no backup or it keeps up. A service whose replica lags
// keeps serving reads, but an orchestrator should know that writes made
// now could be lost with the machine.
func (s *Server) backupBehind(ctx context.Context) string {
	if s.backup == nil {
		return ""
	}
	st, err := s.backup.BackupStatus(ctx)
	if err != nil {
		return "backup: the replica's state cannot be read"
	}
	if st.Lag > s.cfg.BackupMaxLag {
		return fmt.Sprintf("backup: the replica lags %s, more than BACKUP_MAX_LAG (%s)", st.Lag.Round(time.Second/10), s.cfg.BackupMaxLag)
	}
	return ""
}

var backupLag = prometheus.NewDesc("inkwell_backup_lag_seconds",
	"How old the oldest change missing from the backup's replica may be: the time since the replica last held every commit.", nil, nil)

// backupCollector reads the backup's lag at scrape time.
type backupCollector struct {
	backup ports.BackupReporter
}

func (backupCollector) Describe(ch chan<- *prometheus.Desc) { ch <- backupLag }

func (b backupCollector) Collect(ch chan<- prometheus.Metric) {
	st, err := b.backup.BackupStatus(context.Background())
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(backupLag, prometheus.GaugeValue, st.Lag.Seconds())
}
