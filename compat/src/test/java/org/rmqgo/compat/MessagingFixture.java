package org.rmqgo.compat;

import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the messaging test classes share: one started producer per test class (Clients.producer(),
 * started before the first test, shut down after the last) and steps each test leaves to run
 * after it (closeLater), last added first, even when the test failed.
 *
 * One test instance per class (PER_CLASS), so the producer is the class's own: the classes run
 * side by side (pom.xml, junit.jupiter.execution.parallel).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MessagingFixture {
    /** The test class's producer, started before its first test and shut down after its last. */
    protected DefaultMQProducer producer;

    private final List<AutoCloseable> cleanups = new ArrayList<>();

    @BeforeAll
    void startSharedProducer() throws Exception {
        Clients.admin();
        producer = Clients.producer();
    }

    @AfterAll
    void stopSharedProducer() {
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
