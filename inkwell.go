// Package inkwell is the composition root: it wires the stores, the use
// cases and the HTTP adapter together (see wire.go; wire_gen.go is generated
// from it by `make generate`). NewUseCases builds the use cases, for the
// service and its tests alike.
package inkwell

import (
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/purge"
	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// Config is the whole service's configuration, one struct per component.
type Config struct {
	Store StoreConfig
	HTTP  httpapi.Config
	// UseCaseConfig is the use cases' configuration, which NewUseCases
	// takes as it is.
	UseCaseConfig
	Webhooks  webhooks.Config
	Delivery  app.WebhooksConfig
	Passwords passwords.Config
	Files     FilesConfig
	// Mail is how mail leaves; MailQueue how the outbox sends it.
	Mail      mail.Config
	MailQueue app.MailConfig
	// Cache is the cache of anonymous reads.
	Cache CacheConfig
	// Trash is how long deleted posts and comments stay restorable.
	Trash app.TrashConfig
	// Backup is the continuous backup of the SQLite store.
	Backup BackupConfig
}

// Service is the assembled service: the HTTP server and what the command
// line needs besides it.
type Service struct {
	Server *httpapi.Server
	Store  ports.Store
	Events ports.Events
	// Operator is the operator's powers, which the command line alone
	// holds: no transport is handed them.
	Operator ports.Operator
	// AdminSetup makes the link that makes the first admin, which serve
	// logs while there is none.
	AdminSetup ports.AdminSetup
	// Webhooks delivers webhooks; every replica runs it.
	Webhooks *app.WebhookWorker
	// Mail sends the outbox's mails; every replica runs it.
	Mail *app.MailWorker
	// CacheInvalidation evicts from the cache of anonymous reads what each
	// event changed, and Purger tells a shared cache in front (nil: none);
	// every replica runs both.
	CacheInvalidation *app.CacheInvalidation
	Purger            *purge.Purger
	// Trash purges what stayed in the trash past its retention; every
	// replica runs it.
	Trash *app.TrashPurger
}
