//go:build wireinject

package inkwell

import (
	"context"
	"log/slog"

	"github.com/google/wire"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/adapters/webhooks"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// Build assembles the service from its configuration. The cleanup closes the
// store.
func Build(ctx context.Context, cfg Config, log *slog.Logger) (*Service, func(), error) {
	wire.Build(
		wire.FieldsOf(new(Config), "Store", "HTTP", "UseCaseConfig", "Webhooks", "Delivery", "Passwords", "Files", "Mail", "MailQueue", "Trash", "Backup", "Cache"),
		wire.FieldsOf(new(UseCaseConfig), "Events"),
		openStore,
		openBackup,
		passwords.NewBcrypt, wire.Bind(new(ports.PasswordHasher), new(*passwords.Bcrypt)),
		random.NewSecrets, wire.Bind(new(ports.SecretGenerator), new(random.Secrets)),
		clock.NewUTC, wire.Bind(new(ports.Clock), new(clock.UTC)),
		openFiles,
		newWebhookSender, wire.Bind(new(ports.WebhookSender), new(*webhooks.Sender)),
		app.NewWebhookWorker,
		mail.NewComposer, wire.Bind(new(ports.MailComposer), new(*mail.Composer)),
		mail.New,
		app.NewOutbox,
		app.NewMailWorker,
		app.NewTrashPurger,
		wire.Struct(new(UseCaseDeps), "*"),
		NewUseCases,
		NewOperator,
		wire.FieldsOf(new(ports.UseCases), "Events", "AdminSetup"),
		NewConsole,
		NewHosted,
		newCache,
		newPurger,
		newCacheInvalidation,
		NewHTTPDeps,
		httpapi.New,
		wire.Struct(new(Service), "*"),
	)
	return nil, nil, nil
}
