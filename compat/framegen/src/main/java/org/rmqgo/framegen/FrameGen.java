package org.rmqgo.framegen;

import com.alibaba.fastjson.serializer.SerializerFeature;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.rocketmq.common.DataVersion;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.UtilAll;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.filter.ExpressionType;
import org.apache.rocketmq.common.help.FAQUrl;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.protocol.RequestCode;
import org.apache.rocketmq.common.protocol.ResponseCode;
import org.apache.rocketmq.common.protocol.body.RegisterBrokerBody;
import org.apache.rocketmq.common.protocol.body.TopicConfigSerializeWrapper;
import org.apache.rocketmq.common.protocol.header.PullMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.PullMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeaderV2;
import org.apache.rocketmq.common.protocol.header.SendMessageResponseHeader;
import org.apache.rocketmq.common.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.common.protocol.header.namesrv.GetRouteInfoRequestHeader;
import org.apache.rocketmq.common.protocol.header.namesrv.RegisterBrokerRequestHeader;
import org.apache.rocketmq.common.protocol.heartbeat.ConsumeType;
import org.apache.rocketmq.common.protocol.heartbeat.ConsumerData;
import org.apache.rocketmq.common.protocol.heartbeat.HeartbeatData;
import org.apache.rocketmq.common.protocol.heartbeat.MessageModel;
import org.apache.rocketmq.common.protocol.heartbeat.ProducerData;
import org.apache.rocketmq.common.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.common.protocol.route.BrokerData;
import org.apache.rocketmq.common.protocol.route.QueueData;
import org.apache.rocketmq.common.protocol.route.TopicRouteData;
import org.apache.rocketmq.common.sysflag.PullSysFlag;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.apache.rocketmq.remoting.protocol.FastCodesHeader;
import org.apache.rocketmq.remoting.protocol.LanguageCode;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.RemotingSysResponseCode;
import org.apache.rocketmq.remoting.protocol.SerializeType;

/**
 * Writes RocketMQ 4.9.8 remoting frames, built with the real Java classes, to
 * a directory: one {@code <name>.json.bin} and one {@code <name>.rocketmq.bin}
 * per frame.
 *
 * <p>Each file holds exactly the bytes that Java's {@code NettyEncoder} puts on
 * the wire ({@code fastEncodeHeader} followed by the body): total length,
 * header word, header, body. For commands whose custom header is a
 * {@code FastCodesHeader} the ROCKETMQ header written by the wire path lists
 * the header fields in a fixed order, whereas {@code RemotingCommand.encode()}
 * lists them in HashMap order; for those the {@code encode()} output is also
 * written, as {@code <name>_encode.rocketmq.bin}. For every other command the
 * two paths give identical bytes, which this program checks.
 *
 * <p>Every time-varying value (opaque, timestamps, unique ids, data versions)
 * is fixed, so a rerun gives the same files.
 */
public final class FrameGen {
    static final String TOPIC = "TopicTest";
    static final String CLUSTER = "DefaultCluster";
    static final String BROKER = "broker-a";
    static final String BROKER_ADDR = "127.0.0.1:10911";
    static final String SLAVE_ADDR = "127.0.0.1:10921";
    static final String PRODUCER_GROUP = "please_rename_unique_group_name";
    static final String CONSUMER_GROUP = "please_rename_unique_group_name_4";
    static final String CLIENT_ID = "127.0.0.1@4242";
    static final String UNIQ_KEY = "7F000001109218B4AAC2136C4A000000";
    static final long BORN_TIMESTAMP = 1700000000000L;
    static final long STORE_TIMESTAMP = 1700000000003L;
    static final String BODY = "Hello RocketMQ 0";

    private final Path dir;
    private final List<String> summary = new ArrayList<>();

    private FrameGen(Path dir) {
        this.dir = dir;
    }

    public static void main(String[] args) throws Exception {
        // What the Java client, broker and name server set at start-up, so
        // that every command carries version 409 (V4_9_8).
        System.setProperty(RemotingCommand.REMOTING_VERSION_KEY, Integer.toString(MQVersion.CURRENT_VERSION));
        Path dir = Paths.get(args.length > 0 ? args[0] : "../../testdata/frames");
        Files.createDirectories(dir);
        FrameGen g = new FrameGen(dir);
        g.writeAll();
        g.summary.forEach(System.out::println);
    }

    private void writeAll() throws Exception {
        write("get_routeinfo_by_topic_request", FrameGen::routeRequest);
        write("get_routeinfo_by_topic_response", () -> routeResponse(true));
        write("get_routeinfo_by_topic_legacy_response", () -> routeResponse(false));
        write("topic_not_exist_response", FrameGen::topicNotExist);
        write("send_message_v2_request", FrameGen::sendRequest);
        write("send_message_response", FrameGen::sendResponse);
        write("pull_message_request", FrameGen::pullRequest);
        write("pull_message_response", FrameGen::pullResponse);
        write("register_broker_request", FrameGen::registerBroker);
        write("heart_beat_request", FrameGen::heartbeat);
        write("update_consumer_offset_oneway_request", FrameGen::onewayOffset);
        write("system_busy_response", FrameGen::systemBusy);
        write("request_code_not_supported_response", FrameGen::notSupported);
    }

    // ---- the commands -------------------------------------------------

    /** MQClientAPIImpl.getTopicRouteInfoFromNameServer. */
    static RemotingCommand routeRequest() {
        GetRouteInfoRequestHeader h = new GetRouteInfoRequestHeader();
        h.setTopic(TOPIC);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, h);
        cmd.setOpaque(7);
        return cmd;
    }

    /**
     * DefaultRequestProcessor.getRouteInfoByTopic with the route
     * RouteInfoManager.pickupTopicRouteData builds. standard: the request's
     * version is at least V4_9_4 (the 4.9.8 client's is), so the body is
     * written with BrowserCompatible etc.; otherwise plain fastjson.
     */
    static RemotingCommand routeResponse(boolean standard) {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(null);
        TopicRouteData route = new TopicRouteData();
        QueueData qd = new QueueData();
        qd.setBrokerName(BROKER);
        qd.setReadQueueNums(4);
        qd.setWriteQueueNums(4);
        qd.setPerm(6);
        qd.setTopicSysFlag(0);
        List<QueueData> queues = new ArrayList<>();
        queues.add(qd);
        route.setQueueDatas(queues);
        HashMap<Long, String> addrs = new HashMap<>();
        addrs.put(MixAll.MASTER_ID, BROKER_ADDR);
        addrs.put(1L, SLAVE_ADDR);
        List<BrokerData> brokers = new ArrayList<>();
        brokers.add(new BrokerData(CLUSTER, BROKER, addrs));
        route.setBrokerDatas(brokers);
        route.setFilterServerTable(new HashMap<>());
        byte[] body = standard
            ? route.encode(SerializerFeature.BrowserCompatible, SerializerFeature.QuoteFieldNames,
                SerializerFeature.SkipTransientField, SerializerFeature.MapSortField)
            : RemotingSerializable.encode(route);
        cmd.setBody(body);
        cmd.setCode(ResponseCode.SUCCESS);
        cmd.setRemark(null);
        return asAnswer(cmd, 7);
    }

    /** DefaultRequestProcessor.getRouteInfoByTopic for an unknown topic. */
    static RemotingCommand topicNotExist() {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(null);
        cmd.setCode(ResponseCode.TOPIC_NOT_EXIST);
        cmd.setRemark("No topic route info in name server for the topic: " + TOPIC
            + FAQUrl.suggestTodo(FAQUrl.APPLY_TOPIC_URL));
        return asAnswer(cmd, 7);
    }

    /** The message of the send frames: new Message(topic, tags, keys, body) plus the producer's UNIQ_KEY. */
    static Message message() {
        Message msg = new Message(TOPIC, "TagA", "OrderID188", BODY.getBytes(StandardCharsets.UTF_8));
        MessageAccessor.putProperty(msg, MessageConst.PROPERTY_UNIQ_CLIENT_MESSAGE_ID_KEYIDX, UNIQ_KEY);
        return msg;
    }

    /** DefaultMQProducerImpl.sendKernelImpl + MQClientAPIImpl.sendMessage (sendSmartMsg). */
    static RemotingCommand sendRequest() {
        Message msg = message();
        SendMessageRequestHeader v1 = new SendMessageRequestHeader();
        v1.setProducerGroup(PRODUCER_GROUP);
        v1.setTopic(msg.getTopic());
        v1.setDefaultTopic(TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC);
        v1.setDefaultTopicQueueNums(4);
        v1.setQueueId(1);
        v1.setSysFlag(0);
        v1.setBornTimestamp(BORN_TIMESTAMP);
        v1.setFlag(msg.getFlag());
        v1.setProperties(MessageDecoder.messageProperties2String(msg.getProperties()));
        v1.setReconsumeTimes(0);
        v1.setUnitMode(false);
        v1.setBatch(false);
        v1.setBname(BROKER);
        SendMessageRequestHeaderV2 v2 = SendMessageRequestHeaderV2.createSendMessageRequestHeaderV2(v1);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE_V2, v2);
        cmd.setBody(msg.getBody());
        cmd.setOpaque(8);
        return cmd;
    }

    /** SendMessageProcessor.sendMessage / handlePutMessageResult, PUT_OK. */
    static RemotingCommand sendResponse() {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(SendMessageResponseHeader.class);
        SendMessageResponseHeader h = (SendMessageResponseHeader) cmd.readCustomHeader();
        cmd.addExtField(MessageConst.PROPERTY_MSG_REGION, MixAll.DEFAULT_TRACE_REGION_ID);
        cmd.addExtField(MessageConst.PROPERTY_TRACE_SWITCH, "true");
        cmd.setCode(ResponseCode.SUCCESS);
        cmd.setRemark(null);
        h.setMsgId(offsetMsgId(0));
        h.setQueueId(1);
        h.setQueueOffset(0L);
        return asAnswer(cmd, 8);
    }

    /** PullAPIWrapper.pullKernelImpl, all fields set. */
    static RemotingCommand pullRequest() {
        PullMessageRequestHeader h = new PullMessageRequestHeader();
        h.setConsumerGroup(CONSUMER_GROUP);
        h.setTopic(TOPIC);
        h.setQueueId(1);
        h.setQueueOffset(16L);
        h.setMaxMsgNums(32);
        h.setSysFlag(PullSysFlag.buildSysFlag(true, true, true, false));
        h.setCommitOffset(16L);
        h.setSuspendTimeoutMillis(15000L);
        h.setSubscription("TagA || TagB");
        h.setSubVersion(BORN_TIMESTAMP);
        h.setExpressionType(ExpressionType.TAG);
        h.setBname(BROKER);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.PULL_MESSAGE, h);
        cmd.setOpaque(9);
        return cmd;
    }

    /** PullMessageProcessor.processRequest, status FOUND, two messages read from the heap. */
    static RemotingCommand pullResponse() {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(PullMessageResponseHeader.class);
        PullMessageResponseHeader h = (PullMessageResponseHeader) cmd.readCustomHeader();
        cmd.setRemark("FOUND");
        h.setNextBeginOffset(18L);
        h.setMinOffset(0L);
        h.setMaxOffset(18L);
        h.setSuggestWhichBrokerId(MixAll.MASTER_ID);
        cmd.setCode(ResponseCode.SUCCESS);
        byte[] first = storedMessage(16, 0);
        byte[] second = storedMessage(17, first.length);
        ByteBuffer body = ByteBuffer.allocate(first.length + second.length);
        body.put(first).put(second);
        cmd.setBody(body.array());
        return asAnswer(cmd, 9);
    }

    /** BrokerOuterAPI.registerBrokerAll, uncompressed body (the 4.9.8 default). */
    static RemotingCommand registerBroker() {
        RegisterBrokerRequestHeader h = new RegisterBrokerRequestHeader();
        h.setBrokerAddr(BROKER_ADDR);
        h.setBrokerId(MixAll.MASTER_ID);
        h.setBrokerName(BROKER);
        h.setClusterName(CLUSTER);
        h.setHaServerAddr("127.0.0.1:10912");
        h.setCompressed(false);
        TopicConfigSerializeWrapper wrapper = new TopicConfigSerializeWrapper();
        ConcurrentHashMap<String, TopicConfig> topics = new ConcurrentHashMap<>();
        TopicConfig tc = new TopicConfig(TOPIC, 4, 4, 6);
        topics.put(TOPIC, tc);
        wrapper.setTopicConfigTable(topics);
        DataVersion dv = new DataVersion();
        dv.setTimestamp(BORN_TIMESTAMP);
        dv.setCounter(new AtomicLong(3));
        wrapper.setDataVersion(dv);
        RegisterBrokerBody rb = new RegisterBrokerBody();
        rb.setTopicConfigSerializeWrapper(wrapper);
        rb.setFilterServerList(new ArrayList<>());
        byte[] body = rb.encode(false);
        h.setBodyCrc32(UtilAll.crc32(body));
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.REGISTER_BROKER, h);
        cmd.setBody(body);
        cmd.setOpaque(10);
        return cmd;
    }

    /** MQClientInstance.prepareHeartbeatData + MQClientAPIImpl.sendHeartbeat of a producer+push-consumer client. */
    static RemotingCommand heartbeat() {
        HeartbeatData hb = new HeartbeatData();
        hb.setClientID(CLIENT_ID);
        // Java keeps these in HashSets of objects without hashCode(): the
        // order would change from run to run. Linked sets fix it.
        LinkedHashSet<ProducerData> producers = new LinkedHashSet<>();
        ProducerData pd = new ProducerData();
        pd.setGroupName(PRODUCER_GROUP);
        producers.add(pd);
        ProducerData inner = new ProducerData();
        inner.setGroupName(MixAll.CLIENT_INNER_PRODUCER_GROUP);
        producers.add(inner);
        hb.setProducerDataSet(producers);
        ConsumerData cd = new ConsumerData();
        cd.setGroupName(CONSUMER_GROUP);
        cd.setConsumeType(ConsumeType.CONSUME_PASSIVELY);
        cd.setMessageModel(MessageModel.CLUSTERING);
        cd.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        cd.setUnitMode(false);
        LinkedHashSet<SubscriptionData> subs = new LinkedHashSet<>();
        SubscriptionData sd = new SubscriptionData(TOPIC, "TagA || TagB");
        sd.getTagsSet().add("TagA");
        sd.getTagsSet().add("TagB");
        sd.getCodeSet().add("TagA".hashCode());
        sd.getCodeSet().add("TagB".hashCode());
        sd.setSubVersion(BORN_TIMESTAMP);
        subs.add(sd);
        SubscriptionData retry = new SubscriptionData(MixAll.getRetryTopic(CONSUMER_GROUP), SubscriptionData.SUB_ALL);
        retry.setSubVersion(BORN_TIMESTAMP + 1);
        subs.add(retry);
        cd.setSubscriptionDataSet(subs);
        LinkedHashSet<ConsumerData> consumers = new LinkedHashSet<>();
        consumers.add(cd);
        hb.setConsumerDataSet(consumers);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.HEART_BEAT, null);
        cmd.setLanguage(LanguageCode.JAVA);
        cmd.setBody(hb.encode());
        cmd.setOpaque(11);
        return cmd;
    }

    /** MQClientAPIImpl.updateConsumerOffsetOneway (RemoteBrokerOffsetStore's periodic persist) + invokeOneway. */
    static RemotingCommand onewayOffset() {
        UpdateConsumerOffsetRequestHeader h = new UpdateConsumerOffsetRequestHeader();
        h.setConsumerGroup(CONSUMER_GROUP);
        h.setTopic(TOPIC);
        h.setQueueId(1);
        h.setCommitOffset(18L);
        h.setBname(BROKER);
        RemotingCommand cmd = RemotingCommand.createRequestCommand(RequestCode.UPDATE_CONSUMER_OFFSET, h);
        cmd.markOnewayRPC();
        cmd.setOpaque(12);
        return cmd;
    }

    /** NettyRemotingAbstract.processRequestCommand when the processor rejects the request. */
    static RemotingCommand systemBusy() {
        RemotingCommand cmd = RemotingCommand.createResponseCommand(RemotingSysResponseCode.SYSTEM_BUSY,
            "[REJECTREQUEST]system busy, start flow control for a while");
        cmd.setOpaque(13);
        return cmd;
    }

    /**
     * AdminBrokerProcessor.getUnknownCmdResponse (the broker's default
     * processor) for a 5.x GET_TOPIC_CONFIG (351); the same remark as
     * NettyRemotingAbstract.processRequestCommand's no-processor branch.
     */
    static RemotingCommand notSupported() {
        String error = " request type " + 351 + " not supported";
        RemotingCommand cmd = RemotingCommand.createResponseCommand(RemotingSysResponseCode.REQUEST_CODE_NOT_SUPPORTED, error);
        return asAnswer(cmd, 14);
    }

    // ---- helpers ------------------------------------------------------

    /** What NettyRemotingAbstract's callback does to a processor's response before writing it. */
    static RemotingCommand asAnswer(RemotingCommand cmd, int opaque) {
        cmd.setOpaque(opaque);
        cmd.markResponseType();
        return cmd;
    }

    /** The offset message id of a message stored by BROKER_ADDR at a commit log offset. */
    static String offsetMsgId(long commitLogOffset) {
        ByteBuffer addr = ByteBuffer.allocate(8);
        addr.put(new byte[] {127, 0, 0, 1});
        addr.putInt(10911);
        addr.flip();
        return MessageDecoder.createMessageId(ByteBuffer.allocate(16), addr, commitLogOffset);
    }

    /** One message as the commit log (and so a pull body) holds it. */
    static byte[] storedMessage(long queueOffset, long commitLogOffset) {
        Message m = message();
        MessageExt ext = new MessageExt();
        ext.setTopic(m.getTopic());
        ext.setBody(m.getBody());
        ext.setFlag(m.getFlag());
        MessageAccessor.setProperties(ext, new HashMap<>(m.getProperties()));
        MessageAccessor.putProperty(ext, MessageConst.PROPERTY_CLUSTER, CLUSTER);
        ext.setBodyCRC(UtilAll.crc32(ext.getBody()));
        ext.setQueueId(1);
        ext.setQueueOffset(queueOffset);
        ext.setCommitLogOffset(commitLogOffset);
        ext.setSysFlag(0);
        ext.setBornTimestamp(BORN_TIMESTAMP);
        ext.setBornHost(new InetSocketAddress("127.0.0.1", 54321));
        ext.setStoreTimestamp(STORE_TIMESTAMP);
        ext.setStoreHost(new InetSocketAddress("127.0.0.1", 10911));
        ext.setReconsumeTimes(0);
        ext.setPreparedTransactionOffset(0);
        try {
            return MessageDecoder.encode(ext, false);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The wire bytes: what NettyEncoder.encode writes for cmd. */
    static byte[] wire(RemotingCommand cmd) {
        ByteBuf out = Unpooled.buffer();
        cmd.fastEncodeHeader(out);
        if (cmd.getBody() != null) {
            out.writeBytes(cmd.getBody());
        }
        byte[] b = new byte[out.readableBytes()];
        out.readBytes(b);
        return b;
    }

    /** The bytes of RemotingCommand.encode(), which include the length field. */
    static byte[] encoded(RemotingCommand cmd) {
        ByteBuffer bb = cmd.encode();
        byte[] b = new byte[bb.remaining()];
        bb.get(b);
        return b;
    }

    private void write(String name, Supplier<RemotingCommand> build) throws Exception {
        for (SerializeType st : new SerializeType[] {SerializeType.JSON, SerializeType.ROCKETMQ}) {
            String suffix = st == SerializeType.JSON ? "json" : "rocketmq";
            RemotingCommand a = build.get();
            a.setSerializeTypeCurrentRPC(st);
            byte[] onWire = wire(a);
            RemotingCommand b = build.get();
            b.setSerializeTypeCurrentRPC(st);
            byte[] viaEncode = encoded(b);
            check(name, onWire, a);
            check(name, viaEncode, a);
            Files.write(dir.resolve(name + "." + suffix + ".bin"), onWire);
            String note = "";
            if (!Arrays.equals(onWire, viaEncode)) {
                if (st == SerializeType.JSON || !(a.readCustomHeader() instanceof FastCodesHeader)) {
                    throw new IllegalStateException(name + "." + suffix + ": encode() and the wire path differ");
                }
                Files.write(dir.resolve(name + "_encode." + suffix + ".bin"), viaEncode);
                note = " (+ _encode variant)";
            }
            summary.add(String.format("%-48s code=%-4d flag=%d opaque=%-3d frame=%4d body=%4d%s",
                name + "." + suffix + ".bin", a.getCode(), a.getFlag(), a.getOpaque(), onWire.length,
                a.getBody() == null ? 0 : a.getBody().length, note));
        }
    }

    /** Decodes frame the way NettyDecoder + RemotingCommand.decode do and compares it with the source. */
    private static void check(String name, byte[] frame, RemotingCommand src) throws Exception {
        ByteBuffer bb = ByteBuffer.wrap(frame);
        int total = bb.getInt();
        if (total != frame.length - 4) {
            throw new IllegalStateException(name + ": length field " + total + " != " + (frame.length - 4));
        }
        RemotingCommand got = RemotingCommand.decode(Arrays.copyOfRange(frame, 4, frame.length));
        boolean same = got.getCode() == src.getCode() && got.getOpaque() == src.getOpaque()
            && got.getFlag() == src.getFlag() && got.getVersion() == src.getVersion()
            && got.getLanguage() == src.getLanguage() && Objects.equals(got.getRemark(), src.getRemark())
            && Arrays.equals(got.getBody(), src.getBody()) && sameFields(got.getExtFields(), src);
        if (!same) {
            throw new IllegalStateException(name + ": decoded frame differs from the command: " + got);
        }
    }

    private static boolean sameFields(Map<String, String> got, RemotingCommand src) {
        src.makeCustomHeaderToNet();
        Map<String, String> want = src.getExtFields();
        if (want == null || want.isEmpty()) {
            return got == null || got.isEmpty();
        }
        return want.equals(got);
    }
}
