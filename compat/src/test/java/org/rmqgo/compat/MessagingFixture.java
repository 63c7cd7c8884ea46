package org.rmqgo.compat;

import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the messaging test classes share: one started producer per test class (Clients.producer(),
 * started before the first test, shut down after the last) and steps each test leaves to run
 * after it (closeLater), last added first, even when the test failed.
 */
abstract class MessagingFixture {
    /**
     * The test class's producer. Static, so that static helpers can send with it; JUnit runs the
     * classes one after another, and each class starts its own before its tests and shuts it down.
     */
    protected static DefaultMQProducer producer;

    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    static void startSharedProducer() throws Exception {
        Clients.admin();
        producer = Clients.producer();
    }

    @AfterAll
    static void stopSharedProducer() {
        if (producer != null) {
            producer.shutdown();
            producer = null;
        }
    }

    /** Runs step after the current test (Clients.runAll: the last added first). */
    protected void closeLater(AutoCloseable step) {
        cleanups.add(step);
    }

    @AfterEach
    void runCleanups() throws Exception {
        Clients.runAll(cleanups);
    }
}
