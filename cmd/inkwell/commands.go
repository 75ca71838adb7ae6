package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// action is a command whose command line has been parsed: what is left to
// run needs the configuration.
type action func(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error

// A command is one word of inkwell's command line, with either subcommands
// or flags of its own. The command line is parsed in full before the
// environment is read or a store opened, so that asking for help, or
// mistyping a flag, has no other effect.
type command struct {
	name     string // the words that select it, "tokens revoke"
	synopsis string // how to call it, one line per form
	summary  string // what it does, in the list of commands
	about    string // the paragraphs of its help between synopsis and flags
	subs     []*command
	// define declares the command's flags on fs and returns the function
	// that checks them, once parsed, and makes the action.
	define func(fs *flag.FlagSet) func() (action, error)
	// bare says that the action reads no configuration: it runs with the
	// zero environment, even where the real one would not load (a
	// production host without APP_KEY asking for one).
	bare bool
	// store says whether the command may make the store it opens, or
	// opens none; it matters for commands that are not bare.
	store storeUse
}

// noFlags is the define of a command without flags, whose action is a.
func noFlags(a action) func(*flag.FlagSet) func() (action, error) {
	return func(*flag.FlagSet) func() (action, error) {
		return func() (action, error) { return a, nil }
	}
}

// helpRequest reports a command line that asks for a command's help; run
// prints it on standard output and succeeds.
type helpRequest struct{ cmd *command }

func (h helpRequest) Error() string { return "help requested for " + h.cmd.name }

// usageError reports a command line inkwell cannot run: an unknown command or
// flag, a missing or extra argument. The process exits with status 2 after
// printing it and the command's usage on standard error.
type usageError struct {
	cmd *command
	err error
}

func (u *usageError) Error() string {
	if u.cmd == root {
		return u.err.Error()
	}
	return u.cmd.name + ": " + u.err.Error()
}

// root is the command line as a whole: inkwell with no command serves.
var root = &command{
	name:     "inkwell",
	synopsis: "inkwell [command] [flags]",
	about: `Inkwell serves its JSON API, both areas on one port, and runs its
maintenance tasks. Its settings come from the environment and from .env in the
working folder (or the file ENV_FILE names), the environment winning;
.env.example lists every key with its default. Only serve, migrate and seed
make a missing SQLite store; every command that opens a store names it on its
first line of standard error.`,
	subs: []*command{serveCommand, migrateCommand, seedCommand, tokensCommand, adminCommand, backupCommand, keyCommand, versionCommand, healthcheckCommand},
}

var serveCommand = &command{
	name:     "serve",
	synopsis: "inkwell [serve]",
	summary:  "serve the API until SIGINT or SIGTERM (the default command)",
	about: `Applies the store's pending migrations, then serves both areas of the API
on PORT (3000) until SIGINT or SIGTERM. It then stops accepting connections
and lets the requests in flight finish, for up to 30 seconds.

It listens on HOST; when HOST is empty, on loopback (127.0.0.1 and ::1) in
development and on every interface in production.`,
	store:  storeCreate,
	define: noFlags(serve),
}

var migrateCommand = &command{
	name:     "migrate",
	synopsis: "inkwell migrate",
	summary:  "apply the store's pending migrations and exit",
	about: `Applies the migrations the store (DATABASE_URL) lacks and exits; serve applies
them too. On PostgreSQL they run under an advisory lock, so that replicas
starting at once apply each migration exactly once.`,
	store:  storeCreate,
	define: noFlags(migrate),
}

var tokensCommand = &command{
	name: "tokens",
	synopsis: `inkwell tokens revoke --email E (--name N | --all)
inkwell tokens prune`,
	summary: "revoke or prune bearer tokens",
	about:   `Manages bearer tokens from the server's side.`,
	subs:    []*command{revokeCommand, pruneCommand},
}

var revokeCommand = &command{
	name:     "tokens revoke",
	synopsis: "inkwell tokens revoke --email E (--name N | --all)",
	summary:  "revoke a user's tokens by name, or all of them",
	about: `Deletes the tokens named N of the user whose e-mail is E (in any case), or
with --all every token of that user, and prints how many it deleted. Their
holders are refused with 401 from then on. An unknown e-mail is an error.`,
	define: func(fs *flag.FlagSet) func() (action, error) {
		email := fs.String("email", "", "the user's e-mail `address`")
		name := fs.String("name", "", "revoke the tokens with this `name`")
		all := fs.Bool("all", false, "revoke every token of the user")
		return func() (action, error) {
			switch {
			case *email == "":
				return nil, errors.New("--email is required")
			case *all == (*name != ""):
				return nil, errors.New("give either --name or --all")
			}
			return revoke(*email, *name, *all), nil
		}
	},
}

var pruneCommand = &command{
	name:     "tokens prune",
	synopsis: "inkwell tokens prune",
	summary:  "delete expired tokens",
	about: `Deletes every expired token and prints how many. An expired token is refused
already; pruning gives its row back.`,
	define: noFlags(prune),
}

var adminCommand = &command{
	name: "admin",
	synopsis: `inkwell admin create --email E --name N
inkwell admin grant --email E
inkwell admin revoke --email E
inkwell admin list`,
	summary: "create admins, or grant, revoke or list the console's admin rights",
	about: `Makes and unmakes admins of the console at /admin. Besides these commands only
the setup link that serve logs while no account has admin rights makes one: no
API route can, and no token's ability ("*" included) is admin rights.`,
	subs: []*command{adminCreateCommand, adminGrantCommand, adminRevokeCommand, adminListCommand},
}

var adminCreateCommand = &command{
	name:     "admin create",
	synopsis: "inkwell admin create --email E --name N",
	summary:  "make a new account with admin rights",
	about: `Makes a new account named N with the e-mail E, its address verified and with
admin rights, and reads its password from standard input: typed without echo on
a terminal, else the first line. An e-mail an account uses already is an error:
give that account the rights with admin grant.`,
	define: func(fs *flag.FlagSet) func() (action, error) {
		email := fs.String("email", "", "the new admin's e-mail `address`")
		name := fs.String("name", "", "the new admin's `name`")
		return func() (action, error) {
			switch {
			case *email == "":
				return nil, errors.New("--email is required")
			case *name == "":
				return nil, errors.New("--name is required")
			}
			return createAdmin(*email, *name), nil
		}
	},
}

// adminRightsCommand is "admin grant" or "admin revoke".
func adminRightsCommand(word, summary, about string, grant bool) *command {
	return &command{
		name:     "admin " + word,
		synopsis: "inkwell admin " + word + " --email E",
		summary:  summary,
		about:    about,
		define: func(fs *flag.FlagSet) func() (action, error) {
			email := fs.String("email", "", "the user's e-mail `address`")
			return func() (action, error) {
				if *email == "" {
					return nil, errors.New("--email is required")
				}
				return setAdmin(*email, grant), nil
			}
		},
	}
}

var adminGrantCommand = adminRightsCommand("grant", "give an account admin rights",
	`Gives the account whose e-mail is E (in any case) admin rights: it may sign in
to the console at /admin. An unknown e-mail is an error.`, true)

var adminRevokeCommand = adminRightsCommand("revoke", "take an account's admin rights",
	`Takes the admin rights of the account whose e-mail is E (in any case). Its
console sessions are refused from their next request on. An unknown e-mail is
an error.`, false)

var adminListCommand = &command{
	name:     "admin list",
	synopsis: "inkwell admin list",
	summary:  "list the admins",
	about:    `Prints every admin, one a line: id, e-mail and name, separated by tabs.`,
	define:   noFlags(listAdmins),
}

var keyCommand = &command{
	name:     "key",
	synopsis: "inkwell key generate",
	summary:  "make application keys",
	about:    `Makes the APP_KEY that signs verification links and remember-me cookies.`,
	subs:     []*command{keyGenerateCommand},
}

var keyGenerateCommand = &command{
	name:     "key generate",
	synopsis: "inkwell key generate",
	summary:  "print a new APP_KEY",
	about: `Prints a new random key in Laravel's form, base64: followed by 32 bytes in
base64, for APP_KEY. It reads no setting and changes nothing: put the line in
the environment of every replica. Changing the key voids the verification
links and remember-me cookies made with the old one.`,
	bare:   true,
	define: noFlags(generateKey),
}

var versionCommand = &command{
	name:     "version",
	synopsis: "inkwell version",
	summary:  "print the version and the revision it was built from",
	about: `Prints the module's version and the version control revision, time and
state the binary was built from, as Go's build information records them;
"inkwell --version" does the same. A binary built outside a repository, or
by go run or go test, has no revision: it prints vcs.revision=unknown.`,
	bare:   true,
	define: noFlags(printVersion),
}

// parse finds the command args name and parses its flags, returning the
// command with its action. It returns a helpRequest or a *usageError when
// there is nothing to run.
func (c *command) parse(args []string) (*command, action, error) {
	if c.subs == nil {
		act, err := c.parseFlags(args)
		return c, act, err
	}
	if len(args) == 0 {
		if c == root {
			return serveCommand, serve, nil
		}
		return nil, nil, &usageError{c, errors.New("missing command")}
	}
	word := args[0]
	switch {
	case isHelpFlag(word):
		return nil, nil, helpRequest{c}
	case c == root && (word == "--version" || word == "-version") && len(args) == 1:
		return versionCommand, printVersion, nil
	case word == "help" && c == root:
		return nil, nil, root.help(args[1:])
	case strings.HasPrefix(word, "-"):
		return nil, nil, &usageError{c, fmt.Errorf("flag provided but not defined: %s", word)}
	}
	if sub := c.sub(word); sub != nil {
		return sub.parse(args[1:])
	}
	return nil, nil, &usageError{c, fmt.Errorf("unknown command %q", word)}
}

// help returns the helpRequest for the command args name, as in
// "inkwell help tokens revoke".
func (c *command) help(args []string) error {
	for _, word := range args {
		next := c.sub(word)
		if next == nil {
			return &usageError{root, fmt.Errorf("unknown command %q", c.path(word))}
		}
		c = next
	}
	return helpRequest{c}
}

func (c *command) sub(word string) *command {
	for _, sub := range c.subs {
		if sub.word() == word {
			return sub
		}
	}
	return nil
}

// path is the name a subcommand word would have under c, for messages.
func (c *command) path(word string) string {
	if c == root {
		return word
	}
	return c.name + " " + word
}

// word is the last word of the command's name, the one that selects it.
func (c *command) word() string {
	return c.name[strings.LastIndexByte(c.name, ' ')+1:]
}

func (c *command) parseFlags(args []string) (action, error) {
	fs := c.flagSet()
	finish := c.define(fs)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, helpRequest{c}
	case err != nil:
		return nil, &usageError{c, err}
	case fs.NArg() > 0:
		return nil, &usageError{c, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	act, err := finish()
	if err != nil {
		return nil, &usageError{c, err}
	}
	return act, nil
}

// flagSet returns an empty flag set for the command that prints nothing:
// help and errors are written by writeHelp and writeUsage, where the caller
// wants them.
func (c *command) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// writeHelp writes the command's whole help: synopsis, description, flags
// and subcommands.
func (c *command) writeHelp(w io.Writer) {
	c.writeSynopsis(w)
	fmt.Fprintf(w, "\n%s\n", c.about)
	c.writeFlags(w)
	c.writeCommands(w)
	if c.subs != nil {
		fmt.Fprintf(w, "\nRun \"inkwell help %s\" or \"inkwell %[1]s -h\" for a command's help.\n", c.path("COMMAND"))
	}
}

// writeUsage writes what follows a usage error: the synopsis, the flags or
// commands, and where the whole help is.
func (c *command) writeUsage(w io.Writer) {
	c.writeSynopsis(w)
	c.writeFlags(w)
	c.writeCommands(w)
	help := "inkwell help"
	if c != root {
		help += " " + c.name
	}
	fmt.Fprintf(w, "\nRun %q for help.\n", help)
}

func (c *command) writeSynopsis(w io.Writer) {
	for i, line := range strings.Split(c.synopsis, "\n") {
		if i == 0 {
			fmt.Fprintf(w, "usage: %s\n", line)
		} else {
			fmt.Fprintf(w, "       %s\n", line)
		}
	}
}

func (c *command) writeFlags(w io.Writer) {
	if c.define == nil {
		return
	}
	fs := c.flagSet()
	c.define(fs)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func (c *command) writeCommands(w io.Writer) {
	if c.subs == nil {
		return
	}
	fmt.Fprintln(w, "\nCommands:")
	var leaves []*command
	for _, sub := range c.subs {
		if sub.subs == nil {
			leaves = append(leaves, sub)
		} else {
			leaves = append(leaves, sub.subs...)
		}
	}
	width := 0
	for _, l := range leaves {
		width = max(width, len(l.name))
	}
	for _, l := range leaves {
		fmt.Fprintf(w, "  %-*s  %s\n", width, l.name, l.summary)
	}
}

// isHelpFlag reports whether arg asks for help the way the flag package
// understands it.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}
