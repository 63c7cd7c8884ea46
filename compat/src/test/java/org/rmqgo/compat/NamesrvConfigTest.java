package org.rmqgo.compat;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import java.util.List;
import java.util.Properties;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET_NAMESRV_CONFIG(319) and UPDATE_NAMESRV_CONFIG(318): mqadmin getNamesrvConfig / updateNamesrvConfig. */
@Isolated
@Execution(ExecutionMode.SAME_THREAD)
class NamesrvConfigTest {
    /** ResponseCode.NO_PERMISSION. */
    private static final int NO_PERMISSION = 16;

    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    private static Properties config() throws Exception {
        var all = admin.getNameServerConfig(List.of(Env.namesrvAddr()));
        assertNotNull(all, "config map");
        Properties p = all.get(Env.namesrvAddr());
        assertNotNull(p, "config keyed by the name server's address, got keys " + all.keySet());
        return p;
    }

    @Test
    void configHasTheServersSettings() throws Exception {
        Properties p = config();
        String port = Env.namesrvAddr().substring(Env.namesrvAddr().lastIndexOf(':') + 1);
        assertEquals(port, p.getProperty("listenPort"), "listenPort");
        String kv = p.getProperty("kvConfigPath");
        assertNotNull(kv, "kvConfigPath in " + p.stringPropertyNames());
        assertTrue(kv.endsWith("namesrv/kvConfig.json"), "kvConfigPath defaults to ~/namesrv/kvConfig.json: " + kv);
        assertEquals("false", p.getProperty("orderMessageEnable"), "orderMessageEnable default");
        assertEquals("center", p.getProperty("productEnvName"), "productEnvName default");
        assertNotNull(p.getProperty("rocketmqHome"), "rocketmqHome in " + p.stringPropertyNames());
        assertNotNull(p.getProperty("serverWorkerThreads"), "the NettyServerConfig half: serverWorkerThreads");
    }

    @Test
    void updateChangesWhatGetReturns() throws Exception {
        String value = Clients.unique("env");
        Properties change = new Properties();
        change.setProperty("productEnvName", value);
        admin.updateNameServerConfig(change, List.of(Env.namesrvAddr()));
        try {
            assertEquals(value, config().getProperty("productEnvName"), "productEnvName after update");
        } finally {
            Properties back = new Properties();
            back.setProperty("productEnvName", "center");
            admin.updateNameServerConfig(back, List.of(Env.namesrvAddr()));
        }
        assertEquals("center", config().getProperty("productEnvName"), "productEnvName restored");
    }

    @Test
    void configPathsCannotBeUpdated() throws Exception {
        String before = config().getProperty("kvConfigPath");
        Properties change = new Properties();
        change.setProperty("kvConfigPath", "/tmp/elsewhere.json");
        MQClientException e = assertThrows(MQClientException.class,
            () -> admin.updateNameServerConfig(change, List.of(Env.namesrvAddr())));
        assertEquals(NO_PERMISSION, e.getResponseCode(), e.toString());
        assertEquals(before, config().getProperty("kvConfigPath"), "kvConfigPath unchanged");
    }
}
