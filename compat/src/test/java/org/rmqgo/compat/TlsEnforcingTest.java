package org.rmqgo.compat;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Servers started with -Dtls.server.mode=enforcing (tls-suite.sh) close a plaintext connection
 * without answering its request, the name server's and the broker's alike; the other tests of that
 * run talk TLS (the clients run with -Dtls.enable=true), so together they show the servers serve TLS
 * and only TLS. Tag "tls": it runs in tls-suite.sh alone.
 */
@Tag("tls")
class TlsEnforcingTest {
    /** Sends a plaintext request to addr and asserts the server closes the connection unanswered. */
    private static void assertClosedUnanswered(String addr) throws IOException {
        try (Socket s = PlaintextProbe.send(addr)) {
            InputStream in = s.getInputStream();
            int b;
            try {
                b = in.read();
            } catch (SocketTimeoutException e) {
                fail(addr + ": the plaintext connection stayed open");
                return;
            } catch (IOException e) {
                return; // reset: closed
            }
            assertEquals(-1, b, addr + ": the plaintext request got an answer");
        }
    }

    @Test
    void nameServerClosesPlaintextConnections() throws IOException {
        assertClosedUnanswered(Env.namesrvAddr());
    }

    @Test
    void brokerClosesPlaintextConnections() throws IOException {
        assertClosedUnanswered(Env.brokerAddr());
    }
}
