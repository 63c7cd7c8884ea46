package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rmqgo/rmqgo/store"
	"github.com/rmqgo/rmqgo/store/inspect"
)

// runGen writes the sample store and waits until its queues and index
// are built, so a clean Close leaves a complete directory.
func runGen(s *store.Store, f *flags, stdout io.Writer) error {
	if err := inspect.WriteSample(s, f.n); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.WaitDispatched(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d bytes of commitlog to %s\n", s.CommitLogMaxOffset(), s.RootDir())
	return nil
}
