package org.rmqgo.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.body.Connection;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.remoting.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.remoting.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A load balancer's HAProxy PROXY protocol header (v1 text, v2 binary) before a client's first
 * request, as 5.x servers accept it (NettyRemotingServer.HandshakeHandler): the broker serves the
 * connection and takes the client's address from the header, so the group's consumer connections
 * list the client at the address the header names, not the balancer's.
 */
class ProxyProtocolTest {
    private static byte[] v1(String src, int port) {
        return ("PROXY TCP4 " + src + " 127.0.0.1 " + port + " 10911\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] v2(byte[] src, int port) {
        ByteBuffer b = ByteBuffer.allocate(16 + 12);
        b.put(new byte[] {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A});
        b.put((byte) 0x21).put((byte) 0x11).putShort((short) 12);
        b.put(src).put(new byte[] {127, 0, 0, 1}).putShort((short) port).putShort((short) 10911);
        return b.array();
    }

    /** A consumer's HEART_BEAT for group as client id, framed. */
    private static byte[] heartbeat(String group, String clientId) {
        HeartbeatData hb = new HeartbeatData();
        hb.setClientID(clientId);
        ConsumerData cd = new ConsumerData();
        cd.setGroupName(group);
        cd.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
        cd.setMessageModel(MessageModel.CLUSTERING);
        cd.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        hb.getConsumerDataSet().add(cd);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        cmd.setBody(hb.encode());
        ByteBuffer frame = cmd.encode();
        byte[] out = new byte[frame.remaining()];
        frame.get(out);
        return out;
    }

    /** The next response on the connection (the broker's own requests, NOTIFY_CONSUMER_IDS_CHANGED, passed over). */
    private static RemotingCommand read(DataInputStream in) throws Exception {
        while (true) {
            int length = in.readInt();
            byte[] rest = new byte[length];
            in.readFully(rest);
            RemotingCommand cmd = RemotingCommand.decode(ByteBuffer.wrap(rest));
            if (cmd.isResponseType()) {
                return cmd;
            }
        }
    }

    @Test
    @Timeout(60)
    void theBrokerListsAClientAtTheAddressItsProxyHeaderNames() throws Exception {
        String group = Clients.unique("cg_haproxy");
        String[] hp = Env.brokerAddr().split(":");
        try (Socket a = new Socket(); Socket b = new Socket()) {
            a.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 5000);
            b.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 5000);
            a.setSoTimeout(30000);
            b.setSoTimeout(30000);
            OutputStream out = a.getOutputStream();
            out.write(v1("192.0.2.7", 51234));
            out.write(heartbeat(group, "192.0.2.7@haproxy-v1"));
            out.flush();
            assertEquals(ResponseCode.SUCCESS, read(new DataInputStream(a.getInputStream())).getCode());
            out = b.getOutputStream();
            out.write(v2(new byte[] {(byte) 198, 51, 100, 9}, 40000));
            out.write(heartbeat(group, "198.51.100.9@haproxy-v2"));
            out.flush();
            assertEquals(ResponseCode.SUCCESS, read(new DataInputStream(b.getInputStream())).getCode());

            ConsumerConnection cc = Clients.admin().examineConsumerConnectionInfo(group, Env.brokerAddr());
            Set<String> seen = new HashSet<>();
            for (Connection c : cc.getConnectionSet()) {
                seen.add(c.getClientId() + " " + c.getClientAddr());
            }
            assertEquals(Set.of("192.0.2.7@haproxy-v1 192.0.2.7:51234", "198.51.100.9@haproxy-v2 198.51.100.9:40000"), seen);
        }
    }
}
