package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
)

// printVersion is the action of version and --version.
func printVersion(_ context.Context, _ environment, _ *slog.Logger, out io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{}
	}
	_, err := fmt.Fprintln(out, versionLine(info))
	return err
}

// versionLine is the one line version prints: the module's version, then
// the build settings that say which revision the binary was built from,
// under Go's names (vcs.revision, vcs.time, vcs.modified). A revision Go did
// not record is "unknown"; the time and state are left out with it.
func versionLine(info *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	line := fmt.Sprintf("inkwell %s vcs.revision=%s", cmp.Or(info.Main.Version, "(devel)"), cmp.Or(settings["vcs.revision"], "unknown"))
	for _, key := range []string{"vcs.time", "vcs.modified"} {
		if v := settings[key]; v != "" {
			line += " " + key + "=" + v
		}
	}
	return line
}
