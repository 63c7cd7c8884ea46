package org.rmqgo.compat;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PUT_KV_CONFIG(100), GET_KV_CONFIG(101), DELETE_KV_CONFIG(102), GET_KVLIST_BY_NAMESPACE(219):
 * mqadmin updateKvConfig / deleteKvConfig, and what updateTopic -o keeps its order conf in.
 */
class KvConfigTest {
    private static DefaultMQAdminExt admin;

    @BeforeAll
    static void start() throws Exception {
        admin = Clients.admin();
    }

    @Test
    void putGetListDelete() throws Exception {
        String ns = Clients.unique("ns");
        admin.createAndUpdateKvConfig(ns, "k1", "v1");
        admin.createAndUpdateKvConfig(ns, "k2", "v2 with spaces; and=signs");
        assertEquals("v1", admin.getKVConfig(ns, "k1"));
        assertEquals("v2 with spaces; and=signs", admin.getKVConfig(ns, "k2"));

        var table = admin.getKVListByNamespace(ns).getTable();
        assertEquals(2, table.size(), "entries of " + ns + ": " + table);
        assertEquals("v1", table.get("k1"));
        assertEquals("v2 with spaces; and=signs", table.get("k2"));

        admin.createAndUpdateKvConfig(ns, "k1", "v1-updated");
        assertEquals("v1-updated", admin.getKVConfig(ns, "k1"), "put overwrites");

        admin.deleteKvConfig(ns, "k1");
        MQClientException e = assertThrows(MQClientException.class, () -> admin.getKVConfig(ns, "k1"));
        assertEquals(Clients.QUERY_NOT_FOUND, e.getResponseCode(), "get after delete: " + e);
        assertEquals("v2 with spaces; and=signs", admin.getKVConfig(ns, "k2"), "the other key stays");

        admin.deleteKvConfig(ns, "k2");
        // Java keeps the emptied namespace: listing it succeeds with no entries.
        var emptied = admin.getKVListByNamespace(ns).getTable();
        assertTrue(emptied == null || emptied.isEmpty(), "entries of the emptied " + ns + ": " + emptied);
    }

    @Test
    void unknownKeyAndNamespaceAreNotFound() throws Exception {
        String ns = Clients.unique("ns_missing");
        MQClientException e = assertThrows(MQClientException.class, () -> admin.getKVConfig(ns, "nope"));
        assertEquals(Clients.QUERY_NOT_FOUND, e.getResponseCode(), e.toString());
        MQClientException l = assertThrows(MQClientException.class, () -> admin.getKVListByNamespace(ns));
        assertEquals(Clients.QUERY_NOT_FOUND, l.getResponseCode(), l.toString());
        // Deleting what is not there is not an error.
        admin.deleteKvConfig(ns, "nope");
    }
}
