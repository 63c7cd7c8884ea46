package org.rmqgo.compat.spring;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Topic and group names unique to this run (one JVM), so that runs never see
 * each other's messages or offsets. They reach the listeners' annotations as
 * ${compat.*} placeholders.
 */
final class RunNames {
    static final String RUN = Long.toString(System.currentTimeMillis(), 36)
        + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);

    static final String PLAIN_TOPIC = "SpringPlain_" + RUN;
    static final String TAG_TOPIC = "SpringTags_" + RUN;
    static final String ORDERLY_TOPIC = "SpringOrderly_" + RUN;
    static final String TX_TOPIC = "SpringTx_" + RUN;

    static final List<String> TOPICS = List.of(PLAIN_TOPIC, TAG_TOPIC, ORDERLY_TOPIC, TX_TOPIC);

    private RunNames() {
    }

    static void register(DynamicPropertyRegistry registry) {
        registry.add("compat.topic.plain", () -> PLAIN_TOPIC);
        registry.add("compat.topic.tags", () -> TAG_TOPIC);
        registry.add("compat.topic.orderly", () -> ORDERLY_TOPIC);
        registry.add("compat.topic.tx", () -> TX_TOPIC);
        registry.add("compat.group.producer", () -> "SpringProducer_" + RUN);
        registry.add("compat.group.plain", () -> "SpringPlainConsumer_" + RUN);
        registry.add("compat.group.tags", () -> "SpringTagConsumer_" + RUN);
        registry.add("compat.group.orderly", () -> "SpringOrderlyConsumer_" + RUN);
        registry.add("compat.group.tx", () -> "SpringTxConsumer_" + RUN);
    }
}
