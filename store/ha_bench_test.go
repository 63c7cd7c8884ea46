package store

import (
	"testing"
	"time"

	"go.uber.org/zap"
)

// BenchmarkSyncMasterPut: puts that wait for a slave's ack (SYNC_MASTER
// over the classic protocol), 32 at a time, master and slave in process.
func BenchmarkSyncMasterPut(b *testing.B) {
	o := DefaultOptions()
	o.RootDir = b.TempDir()
	o.CommitLogFileSize = 64 << 20
	o.SyncMaster = true
	o.SyncFlushTimeout = 5 * time.Second
	master, err := Open(o, zap.NewNop())
	if err != nil {
		b.Fatal(err)
	}
	if err := master.Start(); err != nil {
		b.Fatal(err)
	}
	defer master.Close()
	m := NewHAMaster(master, "127.0.0.1:0")
	if err := m.Start(); err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	so := o
	so.RootDir, so.SyncMaster, so.Slave = b.TempDir(), false, true
	slave, err := Open(so, zap.NewNop())
	if err != nil {
		b.Fatal(err)
	}
	if err := slave.Start(); err != nil {
		b.Fatal(err)
	}
	defer slave.Close()
	c := NewHAClient(slave, m.Addr())
	c.Start()
	defer c.Close()
	for master.PutMessage(ptr(testMessage("Bench", 0, 0))).Status != PutOK {
		time.Sleep(10 * time.Millisecond)
	}
	msg := testMessage("Bench", 0, 1)
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m := msg
			if st := master.PutMessage(&m).Status; st != PutOK {
				b.Errorf("put: %v", st)
				return
			}
		}
	})
}
