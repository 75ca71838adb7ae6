package main

import (
	"os"
	"runtime/debug"
	"testing"
)

func TestSetGCPercent(t *testing.T) {
	t.Cleanup(func() { debug.SetGCPercent(100) })

	t.Setenv("GOGC", "150") // t.Setenv restores the variable's absence after the test
	debug.SetGCPercent(150)
	setGCPercent()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("with GOGC=150 set: the target became %d, want it left at 150", got)
	}

	unsetEnv(t, "GOGC")
	setGCPercent()
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Errorf("without GOGC: the target is %d, want %d", got, defaultGCPercent)
	}
}

// unsetEnv removes name from the environment for the rest of the test.
func unsetEnv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // registers the restore
	if err := os.Unsetenv(name); err != nil {
		t.Fatal(err)
	}
}
