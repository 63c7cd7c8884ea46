package org.rmqgo.compat.spring;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One Spring Boot context for every test class (the same configuration, so
 * Spring's test context cache shares it): the starter's RocketMQTemplate,
 * the listener beans and the transaction listener, on this run's topics.
 */
@SpringBootTest(classes = SpringCompatApp.class)
abstract class SpringStarterTestBase {
    private static final AtomicInteger SEQ = new AtomicInteger();

    @Autowired
    RocketMQTemplate template;

    @Autowired
    Inbox inbox;

    @BeforeAll
    static void needsNameServer() {
        assertNotNull(System.getenv("NAMESRV_ADDR"), "NAMESRV_ADDR must name the name server (see README.md)");
    }

    @DynamicPropertySource
    static void runNames(DynamicPropertyRegistry registry) {
        RunNames.register(registry);
    }

    /** A body no other test or run sends. */
    static String unique(String what) {
        return what + "-" + RunNames.RUN + "-" + SEQ.incrementAndGet();
    }
}
