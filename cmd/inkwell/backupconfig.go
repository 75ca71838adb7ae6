package main

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/inkwell/inkwell"
)

// Backup is the continuous backup of the SQLite store (DESIGN §13): the
// replica's place, with the AWS_* keys of the S3 file store, how often it
// is fed, the lag /readyz tolerates, and whether serve restores a missing
// database from it.
type Backup struct {
	BackupURL              string        `env:"BACKUP_URL"`
	BackupSyncInterval     time.Duration `env:"BACKUP_SYNC_INTERVAL" envDefault:"1s"`
	BackupMaxLag           time.Duration `env:"BACKUP_MAX_LAG" envDefault:"10s"`
	BackupRestoreIfMissing bool          `env:"BACKUP_RESTORE_IF_MISSING"`
	// AWSCABundle is read to be refused: the S3 client the backup shares
	// with the file store is built without the AWS SDK's loader, so it
	// would ignore the bundle; a private CA is trusted through
	// SSL_CERT_FILE.
	AWSCABundle string `env:"AWS_CA_BUNDLE"`
}

// errBackupPostgres is the one line that refuses BACKUP_URL on
// PostgreSQL.
var errBackupPostgres = errors.New(`BACKUP_URL: backs up the embedded SQLite store only; back up PostgreSQL with its own tools (pgBackRest or WAL-G, with a standby): see the README, "Backups and restore"`)

// check names the first bad backup key.
func (b Backup) check(databaseURL string, s3 ScaleOut) error {
	switch {
	case b.BackupSyncInterval <= 0:
		return fmt.Errorf("BACKUP_SYNC_INTERVAL: %s must be positive", b.BackupSyncInterval)
	case b.BackupMaxLag <= 0:
		return fmt.Errorf("BACKUP_MAX_LAG: %s must be positive", b.BackupMaxLag)
	case b.BackupURL == "":
		if b.BackupRestoreIfMissing {
			return errors.New("BACKUP_RESTORE_IF_MISSING: true, but BACKUP_URL is not set")
		}
		return nil
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		return errBackupPostgres
	}
	if _, _, err := b.place(); err != nil {
		return err
	}
	switch {
	case s3.AWSRegion == "":
		return errors.New("AWS_DEFAULT_REGION: required with BACKUP_URL")
	case s3.AWSAccessKeyID == "" || s3.AWSSecretKey == "":
		return errors.New("AWS_ACCESS_KEY_ID: required, with AWS_SECRET_ACCESS_KEY, when BACKUP_URL is set")
	case b.AWSCABundle != "":
		return errors.New("AWS_CA_BUNDLE: the backup's S3 client cannot load a CA bundle; unset it with BACKUP_URL, and trust a private CA through SSL_CERT_FILE")
	}
	return nil
}

// place splits BACKUP_URL, s3://bucket/prefix, into the bucket and the
// prefix.
func (b Backup) place() (bucket, prefix string, err error) {
	u, perr := url.Parse(b.BackupURL)
	if perr != nil || u.Scheme != "s3" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("BACKUP_URL: %q is not s3://bucket/prefix", b.BackupURL)
	}
	return u.Host, strings.Trim(u.Path, "/"), nil
}

// backup is the backup's configuration. Only serve replicates: it sets
// Replicate itself.
func (e environment) backup() inkwell.BackupConfig {
	if e.BackupURL == "" {
		return inkwell.BackupConfig{}
	}
	bucket, prefix, _ := e.place()
	return inkwell.BackupConfig{
		Bucket: bucket, Prefix: prefix,
		S3:               e.files(e.StorageDir).S3,
		SyncInterval:     e.BackupSyncInterval,
		MaxLag:           e.BackupMaxLag,
		RestoreIfMissing: e.BackupRestoreIfMissing,
		Replicate:        e.replicate,
	}
}
