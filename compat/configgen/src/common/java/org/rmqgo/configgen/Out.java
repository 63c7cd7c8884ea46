package org.rmqgo.configgen;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import com.alibaba.fastjson.parser.Feature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes one generated document and checks the premise the Go tests rely on.
 *
 * <p>Java writes map entries in ConcurrentHashMap/HashMap iteration order
 * (hash order); the Go writer writes them sorted. The fixtures are chosen so
 * that both orders agree, and {@link #checkSorted} proves it for every map
 * and set of a document, so the Go tests can compare bytes exactly.
 */
final class Out {
    private final Path dir;

    Out(Path dir) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
    }

    /** Writes name.json (pretty, what ConfigManager.persist writes) and name.compact.json (encode()). */
    void pair(String name, String pretty, String compact) throws IOException {
        checkSorted(name, compact);
        write(name + ".json", pretty);
        write(name + ".compact.json", compact);
    }

    /** Writes one file as it is, with no order check (e.g. Java's own hash order). */
    void write(String file, String content) throws IOException {
        Path p = dir.resolve(file);
        Files.createDirectories(p.getParent());
        Files.write(p, content.getBytes(StandardCharsets.UTF_8));
    }

    static void checkSorted(String name, String compact) {
        Object root = JSON.parse(compact, Feature.OrderedField);
        walk(name, root);
    }

    private static void walk(String path, Object node) {
        if (node instanceof JSONObject) {
            Map<String, Object> m = ((JSONObject) node).getInnerMap();
            List<Object> keys = new ArrayList<>(m.keySet());
            requireSorted(path, keys);
            for (Map.Entry<String, Object> e : m.entrySet()) {
                walk(path + "." + e.getKey(), e.getValue());
            }
        } else if (node instanceof JSONArray) {
            JSONArray a = (JSONArray) node;
            boolean allStrings = true;
            for (Object o : a) {
                allStrings &= o instanceof String;
                walk(path + "[]", o);
            }
            if (allStrings) {
                requireSorted(path, new ArrayList<>(a));
            }
        }
    }

    private static void requireSorted(String path, List<Object> keys) {
        for (int i = 1; i < keys.size(); i++) {
            if (compare(keys.get(i - 1), keys.get(i)) > 0) {
                throw new IllegalStateException(path + ": Java order " + keys
                    + " is not sorted; pick keys whose hash order is sorted");
            }
        }
    }

    private static int compare(Object a, Object b) {
        String sa = String.valueOf(a);
        String sb = String.valueOf(b);
        if (sa.matches("-?\\d+") && sb.matches("-?\\d+")) {
            return Long.compare(Long.parseLong(sa), Long.parseLong(sb));
        }
        return sa.compareTo(sb);
    }
}
