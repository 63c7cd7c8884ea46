package org.rmqgo.compat.spring;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polling with a deadline instead of sleeping and hoping. */
final class Eventually {
    static final Duration DEFAULT = Duration.ofSeconds(45);
    private static final long POLL_MILLIS = 100;

    private Eventually() {
    }

    /** Re-runs check until it returns without throwing, and returns its value. */
    static <T> T eventually(String what, Callable<T> check) throws Exception {
        return eventually(DEFAULT, what, check);
    }

    static <T> T eventually(Duration timeout, String what, Callable<T> check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last;
        while (true) {
            try {
                return check.call();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | AssertionError e) {
                last = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("not true within " + timeout.toSeconds() + " s: " + what
                    + "; last failure: " + last, last);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
