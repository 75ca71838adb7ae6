package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/inkwell/inkwell"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// createAdmin is the action of admin create: a new verified account with
// admin rights, its password read from standard input.
func createAdmin(email, name string) action {
	return func(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
		password, err := readPassword(os.Stdin, os.Stderr)
		if err != nil {
			return err
		}
		svc, cleanup, err := inkwell.Build(ctx, cfg.service(), log)
		if err != nil {
			return err
		}
		defer cleanup()
		u, err := svc.Operator.Admins.Create(ctx, ports.NewAdminInput{Name: name, Email: email, Password: password})
		if errors.Is(err, domain.ErrEmailTaken) {
			return fmt.Errorf("an account uses %s already; give it admin rights with inkwell admin grant --email %[1]s", email)
		}
		if de, ok := domain.AsError(err); ok && de.Kind == domain.Invalid {
			return fmt.Errorf("%s", invalidAccount(de))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s is an admin\n", u.Email)
		return nil
	}
}

// invalidAccount words the rules a new admin's name, e-mail or password
// broke, on one line.
func invalidAccount(de *domain.Error) string {
	parts := make([]string, 0, len(de.Fields))
	for _, v := range de.Fields {
		parts = append(parts, fmt.Sprintf("--%s breaks %s", v.Field, v.Rule))
	}
	msg := strings.Join(parts, "; ")
	return strings.Replace(msg, "--password", "the password", 1)
}

// readPassword reads the new admin's password: from a terminal after a
// prompt on prompt, without echo; otherwise the first line of in, so that
// a script can pipe it in.
func readPassword(in *os.File, prompt io.Writer) (string, error) {
	if term.IsTerminal(int(in.Fd())) {
		fmt.Fprint(prompt, "Password: ")
		b, err := term.ReadPassword(int(in.Fd()))
		fmt.Fprintln(prompt)
		if err != nil {
			return "", fmt.Errorf("read the password: %w", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the password: %w", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", errors.New("no password on standard input: give it as its first line")
	}
	return line, nil
}

// logSetupLink logs, while the store has no admin, the link that makes
// the first one: below APP_URL, else the first address served.
func logSetupLink(ctx context.Context, svc *inkwell.Service, cfg environment, addrs []string, log *slog.Logger) {
	base := cfg.AppURL
	if base == "" && len(addrs) > 0 {
		base = "http://" + addrs[0]
	}
	link, ok, err := svc.AdminSetup.Link(ctx, base)
	switch {
	case err != nil:
		log.Error("admin setup link", "err", err)
	case ok:
		log.Warn("no account has admin rights: open this link within an hour to make the first admin, or run inkwell admin create", "url", link)
	}
}
