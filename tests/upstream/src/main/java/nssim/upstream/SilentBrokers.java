package nssim.upstream;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * scripts/calibrate.sh's brokers the producers cannot reach: registers made-up broker masters
 * with every NameServer, as BrokerOuterAPI#registerBrokerAll does for a real master
 * (REGISTER_BROKER with the topic in its TopicConfigSerializeWrapper, every period), so the
 * NameServers route the topic to them while nothing listens at their addresses (calibrate.sh
 * routes them into a veth whose far end is down: a connect waits its whole timeout). One
 * connection per NameServer carries every registration, as the NameServer ties a broker's
 * liveness to the channel it registered on. Prints {"event":"registered","t_ms"} after the
 * first round; runs until killed.
 * usage: SilentBrokers --out FILE --namesrv A;B --brokers NAME=IP:PORT,... [--topic TopicTest]
 *        [--queues 4] [--period-ms 30000]
 */
public final class SilentBrokers {
    private static final int REGISTER_BROKER = 103;  // RequestCode
    private static final int SUCCESS = 0;            // ResponseCode
    private static final int TIMEOUT_MS = 3000;      // a safety net: the NameServer answers in ms here

    private SilentBrokers() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Cli.options(args, "--out", "--namesrv", "--brokers", "--topic",
            "--queues", "--period-ms");
        Cli.openOutput(Cli.required(options, "--out"));
        String topic = options.getOrDefault("--topic", "TopicTest");
        int queues = Integer.parseInt(options.getOrDefault("--queues", "4"));
        long periodMs = Long.parseLong(options.getOrDefault("--period-ms", "30000"));
        Map<String, String> brokers = new LinkedHashMap<>();
        for (String entry : Cli.required(options, "--brokers").split(",")) {
            String[] nameAddr = entry.split("=", 2);
            if (nameAddr.length != 2) Cli.fail("--brokers: expected NAME=IP:PORT, got " + entry);
            brokers.put(nameAddr[0], nameAddr[1]);
        }
        List<WireChannel> channels = new ArrayList<>();
        for (String addr : Cli.required(options, "--namesrv").split(";")) {
            int colon = addr.lastIndexOf(':');
            channels.add(new WireChannel(new InetSocketAddress(addr.substring(0, colon),
                Integer.parseInt(addr.substring(colon + 1)))));
        }
        int opaque = 0;
        for (boolean first = true; ; first = false) {
            long round = System.currentTimeMillis();
            for (WireChannel channel : channels) {
                for (Map.Entry<String, String> broker : brokers.entrySet()) {
                    RemotingCommand request = RemotingCommand.createRequestCommand(REGISTER_BROKER, null);
                    request.addExtField("brokerName", broker.getKey());
                    request.addExtField("brokerAddr", broker.getValue());
                    request.addExtField("clusterName", "DefaultCluster");
                    request.addExtField("haServerAddr", "");
                    request.addExtField("brokerId", "0");
                    request.addExtField("compressed", "false");
                    request.addExtField("bodyCrc32", "0");  // 0: DefaultRequestProcessor#checksum skips the check
                    // A broker's version: below V3_0_11 the NameServer reads the body as a bare
                    // TopicConfigSerializeWrapper (DefaultRequestProcessor#registerBroker).
                    request.setVersion(MQVersion.CURRENT_VERSION);
                    request.setBody(registerBody(broker.getKey(), topic, queues));
                    request.setOpaque(++opaque);
                    channel.send(request);
                    RemotingCommand response = channel.awaitResponse(opaque, TIMEOUT_MS);
                    if (response == null || response.getCode() != SUCCESS) {
                        Cli.fail("REGISTER_BROKER of " + broker.getKey() + ": "
                            + (response == null ? "no answer" : response.getRemark()));
                    }
                }
            }
            if (first) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("event", "registered");
                line.put("t_ms", System.currentTimeMillis());
                Cli.emit(line);
            }
            Thread.sleep(Math.max(0, round + periodMs - System.currentTimeMillis()));
        }
    }

    /**
     * RegisterBrokerBody as JSON (both lines decode it so when not compressed): the topic's
     * TopicConfig, perm 6 (read and write) as mqadmin updateTopic creates it, and the topic named
     * after the broker, perm 7, as TopicConfigManager creates on every real broker. Not the topic
     * alone: 5.x's RouteInfoManager#registerBroker refuses a table of one topic from a broker not
     * yet in its brokerAddrs (a BrokerController#registerSingleTopicAll before the first
     * registration).
     */
    private static byte[] registerBody(String brokerName, String topic, int queues) {
        JSONObject table = new JSONObject(true);
        table.put(topic, topicConfig(topic, queues, 6));
        table.put(brokerName, topicConfig(brokerName, 1, 7));
        JSONObject dataVersion = new JSONObject(true);
        dataVersion.put("counter", 1);
        dataVersion.put("timestamp", System.currentTimeMillis());
        JSONObject wrapper = new JSONObject(true);
        wrapper.put("topicConfigTable", table);
        wrapper.put("dataVersion", dataVersion);
        JSONObject registerBody = new JSONObject(true);
        registerBody.put("topicConfigSerializeWrapper", wrapper);
        registerBody.put("filterServerList", new ArrayList<String>());
        return JSON.toJSONString(registerBody).getBytes(StandardCharsets.UTF_8);
    }

    private static JSONObject topicConfig(String topic, int queues, int perm) {
        JSONObject config = new JSONObject(true);
        config.put("topicName", topic);
        config.put("readQueueNums", queues);
        config.put("writeQueueNums", queues);
        config.put("perm", perm);
        config.put("topicFilterType", "SINGLE_TAG");
        config.put("topicSysFlag", 0);
        config.put("order", false);
        return config;
    }
}
