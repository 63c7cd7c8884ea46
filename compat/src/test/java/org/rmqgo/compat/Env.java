package org.rmqgo.compat;

/**
 * The servers under test, from the environment that compat/ref-servers.sh
 * writes to compat/target/run/env.sh (run-suite.sh exports it).
 */
final class Env {
    private Env() {
    }

    /** Name server address list, e.g. 127.0.0.1:19876. Required. */
    static String namesrvAddr() {
        return required("NAMESRV_ADDR");
    }

    /** Address (ip:listenPort) of broker-a, the broker most tests use. Required. */
    static String brokerAddr() {
        return required("BROKER_ADDR");
    }

    static String brokerName() {
        return optional("BROKER_NAME", "broker-a");
    }

    static String clusterName() {
        return optional("CLUSTER_NAME", "DefaultCluster");
    }

    /** The second broker, which BrokerUnregisterTest stops. */
    static String brokerBName() {
        return optional("BROKER_B_NAME", "broker-b");
    }

    static String brokerBAddr() {
        return required("BROKER_B_ADDR");
    }

    static long brokerBPid() {
        return Long.parseLong(required("BROKER_B_PID"));
    }

    /**
     * The gRPC endpoint (host:grpcServerPort) of the proxy inside broker-a (PROXY=1) or of the proxy
     * in cluster mode in front of the brokers (PROXY=cluster): env.sh has it when the servers were
     * started with either (the tests tagged "grpc").
     */
    static String proxyAddr() {
        return required("PROXY_ADDR");
    }

    /** compat/ref-servers.sh, which restart-broker runs (env.sh sets it). */
    static String serversScript() {
        return required("COMPAT_SERVERS_SCRIPT");
    }

    /** The servers' RUN_DIR (env.sh sets it). */
    static String runDir() {
        return required("COMPAT_RUN_DIR");
    }

    /** True when the servers under test are of the 5.x line (REF_SERVER_LINE, else the client's line). */
    static boolean serversAreLine5() {
        return optional("REF_SERVER_LINE", Line.CLIENT_LINE).equals("5");
    }

    static String describe() {
        return "namesrv " + optional("NAMESRV_IMPL", "?") + " / broker " + optional("BROKER_IMPL", "?")
            + " (server line " + optional("REF_SERVER_VERSION", "?") + ", client line " + Line.CLIENT_LINE + ")";
    }

    static String required(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set: start the servers with "
                + "'sh compat/ref-servers.sh start' and '. compat/target/run/env.sh', or use compat/run-suite.sh");
        }
        return v.trim();
    }

    static String optional(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v.trim();
    }
}
