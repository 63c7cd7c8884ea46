package broker

// The master-only services (delayed messages, timer delivery, the
// transaction check-back) started and stopped while the broker runs: a
// controller-mode broker changes role without a restart (Java's
// changeSpecialServiceStatus). POP revive needs nothing here: each round
// asks whether the broker is master.

import "sync"

// masterServices runs the master-only loops while on.
type masterServices struct {
	schedule *scheduleService
	timer    *timerService
	tx       *transactionService

	mu   sync.Mutex
	stop chan struct{}
	wg   sync.WaitGroup
}

// on starts the services unless they run.
func (m *masterServices) on() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stop != nil {
		return
	}
	m.stop = make(chan struct{})
	m.schedule.start()
	m.timer.start()
	for _, loop := range []func(<-chan struct{}){m.schedule.loop, m.timer.loop, m.tx.checkLoop} {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			loop(m.stop)
		}()
	}
}

// off stops them and waits until they have.
func (m *masterServices) off() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stop == nil {
		return
	}
	close(m.stop)
	m.wg.Wait()
	m.stop = nil
	m.schedule.persist(true)
	m.timer.close()
}
