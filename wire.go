//go:build wireinject

package inkwell

import (
	"context"
	"log/slog"

	"github.com/google/wire"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// Build assembles the service from its configuration. The cleanup closes the
// store.
func Build(ctx context.Context, cfg Config, log *slog.Logger) (*Service, func(), error) {
	wire.Build(
		wire.FieldsOf(new(Config), "Store", "HTTP", "Accounts", "Sessions", "Passwords", "Files"),
		openStore,
		passwords.NewBcrypt, wire.Bind(new(ports.PasswordHasher), new(*passwords.Bcrypt)),
		random.NewSecrets, wire.Bind(new(ports.SecretGenerator), new(random.Secrets)),
		clock.NewUTC, wire.Bind(new(ports.Clock), new(clock.UTC)),
		app.NewAccounts, wire.Bind(new(ports.Accounts), new(*app.Accounts)),
		app.NewTokens, wire.Bind(new(ports.Tokens), new(*app.Tokens)),
		localfs.New, wire.Bind(new(ports.FileStore), new(*localfs.Files)),
		app.NewPosts, wire.Bind(new(ports.Posts), new(*app.Posts)),
		app.NewProfile, wire.Bind(new(ports.Profile), new(*app.Profile)),
		app.NewSessions, wire.Bind(new(ports.Sessions), new(*app.Sessions)),
		app.NewComments, wire.Bind(new(ports.Comments), new(*app.Comments)),
		app.NewTags, wire.Bind(new(ports.Tags), new(*app.Tags)),
		app.NewPeople, wire.Bind(new(ports.People), new(*app.People)),
		app.NewProducts, wire.Bind(new(ports.Products), new(*app.Products)),
		wire.Struct(new(httpapi.Services), "*"),
		httpapi.New,
		wire.Struct(new(Service), "*"),
	)
	return nil, nil, nil
}
