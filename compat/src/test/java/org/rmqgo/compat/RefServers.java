package org.rmqgo.compat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Drives compat/ref-servers.sh from a test, for the servers that the run started (whatever their
 * implementation: the script reads BROKER_IMPL and RMQGO_BROKER_BIN from RUN_DIR/env.sh).
 */
final class RefServers {
    private RefServers() {
    }

    /**
     * ref-servers.sh restart-broker a|b: SIGTERM to the broker, wait for it to exit, start it again
     * on the same broker.conf and store, wait for its boot line. Returns when it is up; fails with the
     * script's output when it is not within timeoutSeconds.
     */
    static void restartBroker(String which, long timeoutSeconds) throws IOException, InterruptedException {
        restartBroker(which, "", timeoutSeconds);
    }

    /**
     * restart-broker a|b java|go: the same, as that implementation ("" for the one the run started
     * with), on the same store directory.
     */
    static void restartBroker(String which, String impl, long timeoutSeconds)
        throws IOException, InterruptedException {
        restartBroker(which, impl, false, timeoutSeconds);
    }

    /**
     * restart-broker a|b --kill: SIGKILL to the broker (a crash: no shutdown hook, the store is not
     * closed), wait until it is gone, start it again on the same broker.conf and store, wait for its
     * boot line.
     */
    static void killAndRestartBroker(String which, long timeoutSeconds) throws IOException, InterruptedException {
        restartBroker(which, "", true, timeoutSeconds);
    }

    /** stop-broker a|b|slave: SIGTERM to the broker, wait for it to exit; it stays stopped. */
    static void stopBroker(String which, long timeoutSeconds) throws IOException, InterruptedException {
        run("stop-broker", which, List.of(), timeoutSeconds);
    }

    /** start-broker a|b|slave: start a stopped broker again on its broker.conf and store, wait for its boot line. */
    static void startBroker(String which, long timeoutSeconds) throws IOException, InterruptedException {
        startBroker(which, "", timeoutSeconds);
    }

    /** start-broker a|b java|go: the same, as that implementation ("" for the one the run started with). */
    static void startBroker(String which, String impl, long timeoutSeconds) throws IOException, InterruptedException {
        run("start-broker", which, impl.isEmpty() ? List.of() : List.of(impl), timeoutSeconds);
    }

    private static void restartBroker(String which, String impl, boolean kill, long timeoutSeconds)
        throws IOException, InterruptedException {
        List<String> extra = new java.util.ArrayList<>();
        if (!impl.isEmpty()) {
            extra.add(impl);
        }
        if (kill) {
            extra.add("--kill");
        }
        run("restart-broker", which, extra, timeoutSeconds);
    }

    private static void run(String verb, String which, List<String> extra, long timeoutSeconds)
        throws IOException, InterruptedException {
        Path runDir = Path.of(Env.runDir());
        Path log = runDir.resolve(verb + "-" + which + "-" + System.currentTimeMillis() + ".log");
        List<String> cmd = new java.util.ArrayList<>(List.of("sh", Env.serversScript(), verb, which));
        cmd.addAll(extra);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("RUN_DIR", runDir.toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroy();
            throw new AssertionError("ref-servers.sh " + verb + " " + which + " did not finish within "
                + timeoutSeconds + " s; output so far:\n" + read(log));
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("ref-servers.sh " + verb + " " + which + " exited " + p.exitValue()
                + ":\n" + read(log));
        }
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no output)";
    }
}
