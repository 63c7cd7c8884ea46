package org.rmqgo.benchtool;

import java.util.ArrayDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Periodic reports over a sliding window, the way Apache's benchmark tools report: a snapshot of the
 * counters every second, and every ten seconds a report over the last ten snapshots (so each report
 * covers nine seconds). A snapshot is a long array whose element 0 is the time in milliseconds.
 */
final class Window {
    private static final int SNAPSHOTS = 10;
    private final ArrayDeque<long[]> snapshots = new ArrayDeque<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "BenchmarkTimerThread");
        t.setDaemon(true);
        return t;
    });

    /** Starts taking snapshots with take and calling report(first, last) every ten seconds. */
    void start(Supplier<long[]> take, ReportFunction report) {
        timer.scheduleAtFixedRate(() -> {
            synchronized (snapshots) {
                snapshots.addLast(take.get());
                if (snapshots.size() > SNAPSHOTS) {
                    snapshots.removeFirst();
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
        timer.scheduleAtFixedRate(() -> {
            long[] first;
            long[] last;
            synchronized (snapshots) {
                if (snapshots.size() < SNAPSHOTS) {
                    return;
                }
                first = snapshots.getFirst();
                last = snapshots.getLast();
            }
            try {
                report.report(first, last);
            } catch (RuntimeException e) {
                e.printStackTrace();
            }
        }, 10, 10, TimeUnit.SECONDS);
    }

    void stop() {
        timer.shutdownNow();
    }

    /** Per second rate of counter i between two snapshots. */
    static long rate(long[] first, long[] last, int i) {
        return (long) ((last[i] - first[i]) / (double) (last[0] - first[0]) * 1000L);
    }

    /** A report over the window from first to last. */
    interface ReportFunction {
        void report(long[] first, long[] last);
    }
}
