package org.rmqgo.compat;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Servers started with -Dtls.server.mode=permissive (tls-suite.sh with TLS_MODE=permissive) serve
 * plaintext and TLS on the same port: a plaintext request is answered by the name server and the
 * broker alike, while the run's other tests talk TLS (the clients run with -Dtls.enable=true). Tag
 * "tls": it runs in tls-suite.sh alone.
 */
@Tag("tls")
class TlsPermissiveTest {
    /** A response (flag bit 0) to the request's opaque. */
    private static final Pattern RESPONSE_FLAG = Pattern.compile("\"flag\":1[,}]");
    private static final Pattern REQUEST_OPAQUE = Pattern.compile("\"opaque\":1[,}]");

    /**
     * Sends a plaintext request to addr and asserts its response comes back on the same connection
     * (the name server answers it; a broker answers that it does not serve the code, which is an
     * answer too).
     */
    private static void assertAnswered(String addr) throws IOException {
        try (Socket s = PlaintextProbe.send(addr)) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            int length = in.readInt();
            int headerLength = in.readInt() & 0xFFFFFF;
            assertTrue(headerLength <= length - 4, addr + ": header length " + headerLength + " past frame length " + length);
            byte[] header = new byte[headerLength];
            in.readFully(header);
            String json = new String(header, StandardCharsets.UTF_8);
            assertTrue(RESPONSE_FLAG.matcher(json).find() && REQUEST_OPAQUE.matcher(json).find(),
                addr + ": the plaintext request was not answered: " + json);
        }
    }

    @Test
    void nameServerAnswersPlaintextConnections() throws IOException {
        assertAnswered(Env.namesrvAddr());
    }

    @Test
    void brokerAnswersPlaintextConnections() throws IOException {
        assertAnswered(Env.brokerAddr());
    }
}
