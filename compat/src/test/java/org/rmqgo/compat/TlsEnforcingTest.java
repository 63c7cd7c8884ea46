package org.rmqgo.compat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
    /** A GET_BROKER_CLUSTER_INFO (106) request frame with a JSON header, as a 4.x client writes it. */
    private static byte[] plaintextRequest() {
        byte[] header = "{\"code\":106,\"flag\":0,\"language\":\"JAVA\",\"opaque\":1,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":395}"
            .getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(8 + header.length);
        frame.putInt(4 + header.length).putInt(header.length).put(header);
        return frame.array();
    }

    /** Sends a plaintext request to addr and asserts the server closes the connection unanswered. */
    private static void assertClosedUnanswered(String addr) throws IOException {
        String[] hp = addr.split(":");
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 5000);
            s.setSoTimeout(30000);
            OutputStream out = s.getOutputStream();
            out.write(plaintextRequest());
            out.flush();
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
