package org.rmqgo.testsupport;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Polling with a deadline, instead of sleeping and hoping: the servers do
 * some things asynchronously (a broker registers its new topic with the
 * name server after answering the admin call; an unregister lands after the
 * broker process exits).
 */
public final class Eventually {
    /** The longest a broker waits between two registrations is 30 s; allow for one plus slack. */
    public static final Duration DEFAULT = Duration.ofSeconds(45);
    private static final long POLL_MILLIS = 200;

    private Eventually() {
    }

    /** Re-runs check until it returns without throwing, and returns its value. */
    public static <T> T eventually(String what, Callable<T> check) throws Exception {
        return eventually(DEFAULT, what, check);
    }

    public static <T> T eventually(Duration timeout, String what, Callable<T> check) throws Exception {
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
