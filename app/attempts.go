package app

import (
	"errors"
	"sync"
)

// attemptAll runs attempt on every claimed item at once and joins their
// errors. The outbox workers claim no more items than they run at once, as
// a claim's lease is sized for one attempt, so nothing here waits its turn.
func attemptAll[T any](claimed []T, attempt func(T) error) error {
	var wg sync.WaitGroup
	errs := make([]error, len(claimed))
	for i, item := range claimed {
		wg.Go(func() { errs[i] = attempt(item) })
	}
	wg.Wait()
	return errors.Join(errs...)
}
