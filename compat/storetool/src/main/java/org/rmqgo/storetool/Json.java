package org.rmqgo.storetool;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small JSON writer and reader, so the output does not depend on which JSON library a rocketmq
 * line ships (fastjson 1.2.69, fastjson2 ...).
 *
 * <p>Writer: objects are written with their keys in UTF-8 byte order, no spaces. Strings are UTF-8;
 * escaped are {@code "} {@code \} {@code \b \f \n \r \t}, other controls below 0x20 as
 * {@code \}{@code u00XX}, and {@code < > &} U+2028 U+2029 as {@code \}{@code uXXXX} (the same bytes
 * Go's json.Marshal writes for valid UTF-8). Integers (Integer, Long) as JSON numbers.
 *
 * <p>Reader: objects become LinkedHashMap, arrays ArrayList, integers Long, other numbers Double.
 */
final class Json {
    private Json() {
    }

    /** Compares strings by their UTF-8 bytes (unsigned), which is code point order. */
    static final Comparator<String> UTF8_ORDER = (a, b) -> Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    /** A map that writes its keys in UTF-8 byte order. */
    static Map<String, Object> obj() {
        return new TreeMap<>(UTF8_ORDER);
    }

    static String write(Object v) {
        StringBuilder sb = new StringBuilder(256);
        write(sb, v);
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    static void write(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            writeString(sb, (String) v);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            sb.append(((Number) v).longValue());
        } else if (v instanceof Number) {
            sb.append(v.toString());
        } else if (v instanceof Boolean) {
            sb.append(((Boolean) v).booleanValue() ? "true" : "false");
        } else if (v instanceof Map) {
            TreeMap<String, Object> sorted = new TreeMap<>(UTF8_ORDER);
            sorted.putAll((Map<String, Object>) v);
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                writeString(sb, e.getKey());
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof Iterable) {
            sb.append('[');
            boolean first = true;
            for (Object o : (Iterable<Object>) v) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                write(sb, o);
            }
            sb.append(']');
        } else if (v instanceof long[]) {
            sb.append('[');
            long[] a = (long[]) v;
            for (int i = 0; i < a.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(a[i]);
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass() + " as JSON");
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        sb.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15])
                            .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    static Object parse(String s) {
        Reader r = new Reader(s);
        r.ws();
        Object v = r.value();
        r.ws();
        if (r.pos != s.length()) {
            throw r.error("trailing characters");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(String s) {
        Object v = parse(s);
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object: " + s);
        }
        return (Map<String, Object>) v;
    }

    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at " + pos);
        }

        void ws() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        Object value() {
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{': return object();
                case '[': return array();
                case '"': return string();
                case 't': return literal("true", Boolean.TRUE);
                case 'f': return literal("false", Boolean.FALSE);
                case 'n': return literal("null", null);
                default: return number();
            }
        }

        Object literal(String word, Object v) {
            if (!s.startsWith(word, pos)) {
                throw error("bad literal");
            }
            pos += word.length();
            return v;
        }

        Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            pos++;
            ws();
            if (s.charAt(pos) == '}') {
                pos++;
                return m;
            }
            while (true) {
                ws();
                String k = string();
                ws();
                if (s.charAt(pos++) != ':') {
                    throw error("expected :");
                }
                ws();
                m.put(k, value());
                ws();
                char c = s.charAt(pos++);
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("expected , or }");
                }
            }
        }

        List<Object> array() {
            List<Object> l = new ArrayList<>();
            pos++;
            ws();
            if (s.charAt(pos) == ']') {
                pos++;
                return l;
            }
            while (true) {
                ws();
                l.add(value());
                ws();
                char c = s.charAt(pos++);
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    throw error("expected , or ]");
                }
            }
        }

        String string() {
            if (s.charAt(pos) != '"') {
                throw error("expected string");
            }
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"': sb.append('"'); break;
                    case '\\': sb.append('\\'); break;
                    case '/': sb.append('/'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    case 't': sb.append('\t'); break;
                    case 'u':
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                        break;
                    default: throw error("bad escape");
                }
            }
        }

        Object number() {
            int start = pos;
            boolean integral = true;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                char c = s.charAt(pos);
                if (c == '.' || c == 'e' || c == 'E') {
                    integral = false;
                }
                pos++;
            }
            if (start == pos) {
                throw error("unexpected character");
            }
            String t = s.substring(start, pos);
            return integral ? (Object) Long.parseLong(t) : (Object) Double.parseDouble(t);
        }
    }
}
