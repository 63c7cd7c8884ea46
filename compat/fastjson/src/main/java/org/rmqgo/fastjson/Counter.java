package org.rmqgo.fastjson;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * RemotingCommand's opaque defaults to the next value of its static request
 * counter; the oracle sets that counter to Integer.MIN_VALUE before each
 * header decode, so a header without "opaque" prints -2147483648 every time.
 */
final class Counter {
    static final int UNSET_OPAQUE = Integer.MIN_VALUE;

    private Counter() {
    }

    static void reset(Class<?> remotingCommand) {
        try {
            Field f = remotingCommand.getDeclaredField("requestId");
            f.setAccessible(true);
            ((AtomicInteger) f.get(null)).set(UNSET_OPAQUE);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("RemotingCommand.requestId", e);
        }
    }
}
