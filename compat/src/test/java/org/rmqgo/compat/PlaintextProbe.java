package org.rmqgo.compat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A plaintext connection that has sent one request, opaque 1: what TlsEnforcingTest expects to be
 * closed unanswered and TlsPermissiveTest expects to be answered.
 */
final class PlaintextProbe {
    private PlaintextProbe() {
    }

    /** A GET_BROKER_CLUSTER_INFO (106) request frame with a JSON header, as a 4.x client writes it. */
    private static byte[] request() {
        byte[] header = "{\"code\":106,\"flag\":0,\"language\":\"JAVA\",\"opaque\":1,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":395}"
            .getBytes(StandardCharsets.UTF_8);
        ByteBuffer frame = ByteBuffer.allocate(8 + header.length);
        frame.putInt(4 + header.length).putInt(header.length).put(header);
        return frame.array();
    }

    /** Connects to addr (host:port), sends the request and returns the socket, reads timing out after 30 s. */
    static Socket send(String addr) throws IOException {
        String[] hp = addr.split(":");
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 5000);
            s.setSoTimeout(30000);
            OutputStream out = s.getOutputStream();
            out.write(request());
            out.flush();
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }
}
