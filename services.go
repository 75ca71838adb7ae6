package inkwell

import (
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// NewServices builds every use case on store and gives the HTTP adapter what
// it calls: the use cases, the store's ping and, when the store keeps them,
// its pool and query figures. Build and the tests take the service graph
// from here, so the tests run the graph the service runs.
func NewServices(store ports.Store, hasher ports.PasswordHasher, secrets ports.SecretGenerator, files ports.FileStore, clock ports.Clock, accounts app.AccountsConfig, sessions app.SessionsConfig) httpapi.Services {
	acc := app.NewAccounts(store, hasher, secrets, clock, accounts)
	// The figures are optional: a store without pools (the memory store)
	// leaves them nil and /metrics without their series.
	pools, _ := store.(ports.PoolReporter)
	queries, _ := store.(ports.QueryCounter)
	return httpapi.Services{
		Accounts: acc,
		Tokens:   app.NewTokens(store, secrets, clock, accounts),
		People:   app.NewPeople(store, clock),
		Products: app.NewProducts(store, clock),
		Posts:    app.NewPosts(store, files, clock),
		Comments: app.NewComments(store, clock),
		Tags:     app.NewTags(store, clock),
		Profile:  app.NewProfile(store, hasher, secrets, files, clock, accounts),
		Sessions: app.NewSessions(store, acc, secrets, clock, sessions),
		Pinger:   store,
		Pools:    pools,
		Queries:  queries,
	}
}
