package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/domain/demo"
)

func main() {
	os.Remove("/tmp/prof.db")
	os.Remove("/tmp/prof.db-wal")
	s, cleanup, err := sqlite.Open(context.Background(), "/tmp/prof.db")
	if err != nil {
		panic(err)
	}
	defer cleanup()
	f, _ := os.Create("/tmp/sqlite.prof")
	pprof.StartCPUProfile(f)
	t := time.Now()
	err = s.Seed(context.Background(), demo.Plan{Users: 5000, Tags: 200, Posts: 300000, Comments: 900000, Seed: 1, Until: time.Now(), PasswordHash: "x"}, nil)
	pprof.StopCPUProfile()
	fmt.Println(err, time.Since(t))
}
