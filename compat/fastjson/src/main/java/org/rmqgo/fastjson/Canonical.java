package org.rmqgo.fastjson;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The canonical JSON text of a decoded object, built by reflection (never by
 * fastjson, so the form does not depend on the library under test). The Go
 * side of the differential test builds the same text from its own decoders;
 * README.md states the rules, this class is their reference.
 *
 * <ul>
 * <li>null: null; String, Character: a string; Boolean: true/false; Byte,
 * Short, Integer, Long, BigInteger, AtomicInteger, AtomicLong: an integer;
 * Float, Double, BigDecimal: a number as Java's toString (NaN and the
 * infinities as strings); Enum: its name() as a string.</li>
 * <li>A Set: an array of its elements' canonical texts sorted bytewise (UTF-8);
 * a List, any other Collection or an array: an array in order.</li>
 * <li>A Map: an object; a String key as is, any other key as its canonical
 * text; entries sorted bytewise by key.</li>
 * <li>Any other object: an object of its instance fields (its class and
 * superclasses; not static, not transient, not synthetic, not of type
 * java.util.Random) named by field name and sorted by name.</li>
 * <li>A long/Long whose value lies between the clock readings taken just
 * before and after the decode prints as the string "&lt;now&gt;": a
 * constructor default from System.currentTimeMillis() (DataVersion.timestamp,
 * SubscriptionData.subVersion) that the body did not set.</li>
 * <li>Strings escape '"', '\\', chars below 0x20 (as \\u00xx, lowercase hex)
 * and lone surrogates (as \\udxxx); everything else is raw UTF-8. Compact, no
 * spaces.</li>
 * </ul>
 */
public final class Canonical {
    /** Marker of a clock default: see the class comment. */
    public static final String NOW = "<now>";

    private final long clockFrom;
    private final long clockTo;
    private final IdentityHashMap<Object, Boolean> path = new IdentityHashMap<>();
    private static final Map<Class<?>, List<Field>> FIELDS = new ConcurrentHashMap<>();

    /** A writer for one decode, run between clock readings from and to. */
    public Canonical(long clockFrom, long clockTo) {
        this.clockFrom = clockFrom;
        this.clockTo = clockTo;
    }

    public String text(Object o) {
        StringBuilder sb = new StringBuilder();
        write(sb, o);
        return sb.toString();
    }

    private void write(StringBuilder sb, Object o) {
        if (o == null) {
            sb.append("null");
        } else if (o instanceof String || o instanceof Character) {
            string(sb, o.toString());
        } else if (o instanceof Boolean) {
            sb.append(o);
        } else if (o instanceof AtomicBoolean) {
            sb.append(((AtomicBoolean) o).get());
        } else if (o instanceof Long || o instanceof AtomicLong) {
            long v = ((Number) o).longValue();
            if (v >= clockFrom && v <= clockTo) {
                string(sb, NOW);
            } else {
                sb.append(v);
            }
        } else if (o instanceof Byte || o instanceof Short || o instanceof Integer
            || o instanceof AtomicInteger || o instanceof BigInteger) {
            sb.append(o);
        } else if (o instanceof Float || o instanceof Double) {
            double d = ((Number) o).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                string(sb, o.toString());
            } else {
                sb.append(o);
            }
        } else if (o instanceof BigDecimal) {
            sb.append(o);
        } else if (o instanceof Enum) {
            string(sb, ((Enum<?>) o).name());
        } else {
            nested(sb, o);
        }
    }

    /** Containers and beans: guarded against reference cycles ($ref). */
    private void nested(StringBuilder sb, Object o) {
        if (path.put(o, Boolean.TRUE) != null) {
            throw new Failure("reference cycle through a " + o.getClass().getName());
        }
        try {
            if (o instanceof Set) {
                sortedArray(sb, (Set<?>) o);
            } else if (o instanceof Collection) {
                array(sb, new ArrayList<>((Collection<?>) o));
            } else if (o.getClass().isArray()) {
                int n = Array.getLength(o);
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(Array.get(o, i));
                }
                array(sb, items);
            } else if (o instanceof Map) {
                map(sb, (Map<?, ?>) o);
            } else {
                bean(sb, o);
            }
        } finally {
            path.remove(o);
        }
    }

    private void array(StringBuilder sb, List<?> items) {
        sb.append('[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            write(sb, items.get(i));
        }
        sb.append(']');
    }

    private void sortedArray(StringBuilder sb, Set<?> set) {
        List<byte[]> texts = new ArrayList<>(set.size());
        for (Object e : set) {
            texts.add(text(e).getBytes(StandardCharsets.UTF_8));
        }
        texts.sort(Arrays::compareUnsigned);
        sb.append('[');
        for (int i = 0; i < texts.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(new String(texts.get(i), StandardCharsets.UTF_8));
        }
        sb.append(']');
    }

    private void map(StringBuilder sb, Map<?, ?> m) {
        List<Object[]> entries = new ArrayList<>(m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
            Object k = e.getKey();
            String key = k instanceof String ? (String) k : text(k);
            entries.add(new Object[] {key.getBytes(StandardCharsets.UTF_8), key, e.getValue()});
        }
        entries.sort((a, b) -> Arrays.compareUnsigned((byte[]) a[0], (byte[]) b[0]));
        sb.append('{');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            string(sb, (String) entries.get(i)[1]);
            sb.append(':');
            write(sb, entries.get(i)[2]);
        }
        sb.append('}');
    }

    private void bean(StringBuilder sb, Object o) {
        sb.append('{');
        boolean first = true;
        for (Field f : fields(o.getClass())) {
            Object v;
            try {
                v = f.get(o);
            } catch (IllegalAccessException e) {
                throw new Failure("cannot read " + f + ": " + e);
            }
            if (!first) {
                sb.append(',');
            }
            first = false;
            string(sb, f.getName());
            sb.append(':');
            write(sb, v);
        }
        sb.append('}');
    }

    /** Instance fields of c and its superclasses, sorted by name; the most derived wins a name. */
    static List<Field> fields(Class<?> c) {
        return FIELDS.computeIfAbsent(c, k -> {
            Map<String, Field> byName = new java.util.TreeMap<>();
            for (Class<?> t = k; t != null && t != Object.class; t = t.getSuperclass()) {
                if (t.getName().startsWith("java.")) {
                    throw new Failure("no canonical form for " + k.getName());
                }
                for (Field f : t.getDeclaredFields()) {
                    int mod = f.getModifiers();
                    if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic()
                        || f.getType() == Random.class || byName.containsKey(f.getName())) {
                        continue;
                    }
                    f.setAccessible(true);
                    byName.put(f.getName(), f);
                }
            }
            return List.copyOf(byName.values());
        });
    }

    /** The decoded value has no canonical form (a reference cycle, a JDK type outside the rules). */
    public static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message);
        }
    }

    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                sb.append(c).append(s.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }
}
