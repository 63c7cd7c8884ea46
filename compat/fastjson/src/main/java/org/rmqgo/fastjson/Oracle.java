package org.rmqgo.fastjson;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The fastjson oracle: decodes request bodies exactly as the Java broker and
 * name server of this line do (class {@link Kinds}), and prints the canonical
 * form of the result (class {@link Canonical}), so the Go decoders can be
 * compared with the real thing.
 *
 * <p>stdin, one request a line, until EOF: {@code <Kind>\t<base64 of the body>}.
 * stdout, one line per input line, flushed at once:
 * {@code ok\t<canonical JSON>} or {@code err\t<SimpleExceptionName>: <first line of its message>}.
 * Errors of the oracle itself use the names UnknownKind, UnsupportedKind,
 * BadInput and OracleCanonical (a decoded value outside the canonical rules,
 * e.g. a reference cycle made with fastjson's "$ref").
 */
public final class Oracle {
    private Oracle() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        // Libraries that print go to stderr: stdout carries answers only.
        System.setOut(System.err);
        Map<String, Decoder> kinds = Kinds.table();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        for (String line; (line = in.readLine()) != null; ) {
            out.print(answer(kinds, line));
            out.print('\n');
            out.flush();
        }
    }

    /** The output line (without its newline) for one input line. */
    static String answer(Map<String, Decoder> kinds, String line) {
        int tab = line.indexOf('\t');
        String kind = tab < 0 ? line : line.substring(0, tab);
        if (!kinds.containsKey(kind)) {
            return "err\tUnknownKind: " + oneLine(kind);
        }
        Decoder d = kinds.get(kind);
        if (d == null) {
            return "err\tUnsupportedKind: " + kind + " is not decoded by line " + Kinds.LINE;
        }
        byte[] body;
        try {
            body = Base64.getDecoder().decode(tab < 0 ? "" : line.substring(tab + 1).trim());
        } catch (IllegalArgumentException e) {
            return "err\tBadInput: " + oneLine(e.getMessage());
        }
        return decode(d, body);
    }

    static String decode(Decoder d, byte[] body) {
        try {
            long from = System.currentTimeMillis();
            Object v = d.decode(body.length == 0 ? null : body);
            long to = System.currentTimeMillis();
            String text;
            try {
                text = new Canonical(from, to).text(v);
            } catch (Canonical.Failure e) {
                return "err\tOracleCanonical: " + oneLine(e.getMessage());
            }
            return "ok\t" + text;
        } catch (Throwable t) {
            return "err\t" + t.getClass().getSimpleName() + ": " + oneLine(t.getMessage());
        }
    }

    /** The first line of s, tabs as spaces ("null" for null). */
    static String oneLine(String s) {
        if (s == null) {
            return "null";
        }
        int cut = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                cut = i;
                break;
            }
        }
        return s.substring(0, cut).replace('\t', ' ');
    }
}
