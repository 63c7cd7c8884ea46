package org.rmqgo.testsupport;

import java.util.HashMap;
import java.util.Map;

/**
 * The tools' command line: "-key value" pairs, as commons-cli reads Apache's
 * tools' options; values are trimmed.
 */
public final class Args {
    private final Map<String, String> values = new HashMap<>();

    private Args() {
    }

    public static Args parse(String[] args) {
        Args a = new Args();
        for (int i = 0; i < args.length; i++) {
            String key = args[i];
            if (!key.startsWith("-") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected -key value pairs, got: " + String.join(" ", args));
            }
            a.values.put(key.substring(1), args[++i].trim());
        }
        return a;
    }

    public String get(String key, String def) {
        return values.getOrDefault(key, def);
    }

    public String required(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("-" + key + " is required");
        }
        return v;
    }

    public int getInt(String key, int def) {
        return values.containsKey(key) ? Integer.parseInt(values.get(key)) : def;
    }

    public long getLong(String key, long def) {
        return values.containsKey(key) ? Long.parseLong(values.get(key)) : def;
    }
}
