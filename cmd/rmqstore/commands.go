package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/rmqgo/rmqgo/store"
	"github.com/rmqgo/rmqgo/store/inspect"
)

func runLs(s *store.Store, _ *flags, stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tFILE\tSIZE\tWROTE\tDETAIL")
	for _, f := range s.Files() {
		name, _ := filepath.Rel(s.RootDir(), f.Path)
		detail := ""
		switch f.Kind {
		case "consumequeue":
			detail = fmt.Sprintf("%s/%d units %d..%d", f.Topic, f.QueueID, f.Start/20, (f.Start+f.Wrote)/20)
		case "index":
			detail = fmt.Sprintf("entries %d slots %d phy %d..%d time %s..%s", f.IndexCount-1, f.HashSlotCount,
				f.BeginPhyOffset, f.EndPhyOffset, millis(f.BeginTimestamp), millis(f.EndTimestamp))
		}
		wrote := fmt.Sprint(f.Wrote)
		if f.Kind == "index" {
			wrote = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", f.Kind, name, f.Size, wrote, detail)
	}
	fmt.Fprintf(tw, "commitlog\t\t\t\toffsets %d..%d\n", s.CommitLogMinOffset(), s.CommitLogMaxOffset())
	return tw.Flush()
}

func runVerify(s *store.Store, f *flags, stdout io.Writer) error {
	rep, err := inspect.Verify(s, f.index)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "commitlog %d..%d: %d records (%d queued), %d queues, %d queue units, %d keys checked, %d not dispatched\n",
		rep.CommitLogMinOffset, rep.CommitLogMaxOffset, rep.Records, rep.QueuedRecords, rep.Queues,
		rep.QueueUnits, rep.IndexedKeys, rep.NotDispatched)
	for _, p := range rep.Problems {
		fmt.Fprintln(stdout, "PROBLEM", p)
	}
	if rep.MoreProblems > 0 {
		fmt.Fprintf(stdout, "... and %d more problems\n", rep.MoreProblems)
	}
	if rep.OK() {
		fmt.Fprintln(stdout, "OK")
	} else {
		f.hasProblem = true
	}
	return nil
}

func runPrint(s *store.Store, f *flags, stdout io.Writer) error {
	if f.offset >= 0 {
		r, err := s.LookMessage(f.offset)
		if err != nil {
			return err
		}
		printRecord(stdout, &r)
		return nil
	}
	if f.topic == "" {
		return errors.New("print needs -offset or -topic")
	}
	qid := int32(f.queue)
	from := f.from
	if from < 0 {
		from = s.MinOffset(f.topic, qid)
	}
	for printed := 0; printed < f.n; {
		res := s.GetMessages(f.topic, qid, from, min(32, f.n-printed), nil)
		for _, m := range res.Messages {
			r, err := store.DecodeRecord(m.Data)
			if err != nil {
				res.Release()
				return err
			}
			printRecord(stdout, &r)
			printed++
		}
		res.Release()
		if res.Status != store.GetFound {
			fmt.Fprintf(stdout, "-- %s (queue %d..%d)\n", res.Status, res.MinOffset, res.MaxOffset)
			return nil
		}
		from = res.NextBeginOffset
	}
	return nil
}

func printRecord(w io.Writer, r *store.Record) {
	fmt.Fprintf(w, "offset=%d size=%d msgId=%s topic=%s queueId=%d queueOffset=%d\n",
		r.PhysicalOffset, r.Size, r.MsgID(), r.Topic, r.QueueID, r.QueueOffset)
	fmt.Fprintf(w, "  born=%s %s store=%s %s sysFlag=%#x flag=%d reconsumeTimes=%d preparedTransactionOffset=%d bodyCRC=%d\n",
		r.BornHost, millis(r.BornTimestamp), r.StoreHost, millis(r.StoreTimestamp), r.SysFlag, r.Flag,
		r.ReconsumeTimes, r.PreparedTransactionOffset, r.BodyCRC)
	props := store.ParseProperties(string(r.Properties))
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(w, "  %s=%s\n", k, props[k])
	}
	fmt.Fprintf(w, "  body (%d bytes): %s\n", len(r.Body), bodyText(r))
}

// bodyText shows a body as text when it is, else as hex (first 64 bytes).
func bodyText(r *store.Record) string {
	if r.SysFlag&store.SysFlagCompressed != 0 {
		return "(compressed by the producer)"
	}
	if utf8.Valid(r.Body) && !strings.ContainsFunc(string(r.Body), func(c rune) bool { return c < ' ' && c != '\n' && c != '\t' }) {
		return string(r.Body)
	}
	b := r.Body[:min(len(r.Body), 64)]
	return fmt.Sprintf("%x", b)
}

func millis(ms int64) string {
	return time.UnixMilli(ms).Format("2006-01-02 15:04:05.000")
}

func runDump(s *store.Store, f *flags, stdout io.Writer) error {
	if f.out == "" {
		return inspect.DumpMessages(s, stdout)
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	files := []struct {
		name string
		fn   func(*store.Store, io.Writer) error
	}{{"dump.jsonl", inspect.DumpMessages}, {"keys.jsonl", inspect.DumpKeys}, {"queues.jsonl", inspect.DumpQueues}}
	for _, file := range files {
		if err := writeFile(filepath.Join(f.out, file.name), s, file.fn); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, s *store.Store, fn func(*store.Store, io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(s, out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
