package nssim.upstream;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.JSONObject;
import io.netty.channel.ChannelFuture;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.broker.BrokerStartup;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.impl.factory.MQClientInstance;
import org.apache.rocketmq.client.impl.producer.TopicPublishInfo;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The real client of one line against a NameServer (docs/fidelity.md, "The real client against
 * nssim serve"): starts a real broker (BrokerStartup#createBrokerController, in this JVM) that
 * registers with the NameServer at --namesrv, then a DefaultMQProducer, and runs a fixed script of
 * steps, one JSON line each. Addresses are spelt by role ("broker-a@master", "namesrv"), so the
 * lines of a run against the real NameServer and of one against nssim serve compare as text.
 *
 * usage: RealClientCheck --namesrv HOST:PORT --home DIR [--sends N]
 */
public final class RealClientCheck {
    private static final String CLUSTER = "DefaultCluster";
    private static final String BROKER_NAME = "broker-a";
    private static final String TOPIC = "nssim-client-topic";
    private static final String MISSING_TOPIC = "nssim-no-such-topic";
    private static final String DEFAULT_TOPIC = "TBW102";  // TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC
    private static final String ORDER_TOPIC_NAMESPACE = "ORDER_TOPIC_CONFIG";  // NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG
    private static final int QUEUES = 4;
    private static final long RPC_TIMEOUT_MS = 3000;
    private static final long WAIT_LIMIT_MS = 60000;  // a safety net: each wait ends on its condition in ms
    private static final long POLL_MS = 20;

    private static final long START_MS = System.currentTimeMillis();

    private final String namesrv;
    private final PrintStream out;
    private final Map<String, String> addressRoles = new LinkedHashMap<>();

    private RealClientCheck(String namesrv, PrintStream out) {
        this.namesrv = namesrv;
        this.out = out;
        addressRoles.put(namesrv, "namesrv");
    }

    public static void main(String[] args) throws Exception {
        String namesrv = null;
        String home = null;
        int sends = 8;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--namesrv") && i + 1 < args.length) {
                namesrv = args[++i];
            } else if (args[i].equals("--home") && i + 1 < args.length) {
                home = args[++i];
            } else if (args[i].equals("--sends") && i + 1 < args.length) {
                String value = args[++i];
                sends = value.matches("[1-9][0-9]{0,3}") ? Integer.parseInt(value) : -1;
                if (sends < 0) {
                    System.err.println("RealClientCheck: --sends expects 1 to 9999, got '" + value + "'");
                    System.exit(2);
                }
            } else {
                System.err.println("RealClientCheck: unexpected argument '" + args[i] + "'");
                System.exit(2);
            }
        }
        if (namesrv == null || home == null) {
            System.err.println("RealClientCheck: usage: --namesrv HOST:PORT --home DIR [--sends N]");
            System.exit(2);
        }
        configureLogs(Paths.get(home));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        int code = 0;
        try {
            new RealClientCheck(namesrv, out).run(Paths.get(home), sends);
        } catch (Throwable e) {
            System.err.println("RealClientCheck: " + e);
            e.printStackTrace();
            code = 1;
        }
        out.flush();
        // halt: BrokerStartup's shutdown hook would shut the broker down a second time.
        Runtime.getRuntime().halt(code);
    }

    private void run(Path home, int sends) throws Exception {
        BrokerController broker = startBroker(home, namesrv);
        String brokerAddr = broker.getBrokerAddr();
        // 5.x registers only with the NameServers its client has found connectable
        // (BrokerOuterAPI#registerBrokerAll reads NettyRemotingClient#getAvailableNameSrvList, filled
        // by scanAvailableNameSrv on a timer started at 0 ms), so BrokerController#start's own
        // registration races that scan and, when it loses, the broker first registers at its 10 s
        // task. Wait for the scan, then register as start does.
        waitFor("the broker's client to find the NameServer", () -> availableNameServers(broker),
            found -> found == null || ((List<?>) found).contains(namesrv));
        broker.registerBrokerAll(true, false, true);
        addressRoles.put(brokerAddr, BROKER_NAME + "@master");

        DefaultMQProducer producer = new DefaultMQProducer("nssim-client-check");
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("nssim-client-check");
        // The broker's fast port (listenPort - 2) is not the one this run chose free.
        producer.setVipChannelEnabled(false);
        producer.start();
        MQClientInstance client = producer.getDefaultMQProducerImpl().getMqClientFactory();
        MQClientAPIImpl api = client.getMQClientAPIImpl();

        Object cluster = waitFor("broker registered", () -> api.getBrokerClusterInfo(RPC_TIMEOUT_MS),
            info -> brokerAddrs(info).contains(brokerAddr));
        step("clusterInfo", "answer", cluster);
        step("topicsAtStart", "answer", topicList(api));
        step("defaultTopicRoute", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(DEFAULT_TOPIC, RPC_TIMEOUT_MS)));
        step("missingTopicRoute", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));

        // AdminBrokerProcessor#updateAndCreateTopic, as mqadmin updateTopic sends it.
        TopicConfig topicConfig = new TopicConfig(TOPIC, QUEUES, QUEUES, 6);
        api.createTopic(brokerAddr, DEFAULT_TOPIC, topicConfig, RPC_TIMEOUT_MS);
        Object route = waitFor("topic route", () -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS), r -> true);
        step("createdTopicRoute", "answer", route);
        step("publishQueues", "queues", queues(producer.fetchPublishMessageQueues(TOPIC)));

        step("send", "results", sendAll(producer, TOPIC, sends));
        step("producerPublishInfo", "publishInfo", publishInfo(producer));
        step("sendMissingTopic", "result", sendOne(producer, MISSING_TOPIC));
        step("topicsAfterCreate", "answer", topicList(api));
        step("topicsByCluster", "answer", sortedTopics(() -> api.getTopicsByCluster(CLUSTER, RPC_TIMEOUT_MS)));
        step("systemTopics", "answer", sortedTopics(() -> api.getSystemTopicList(RPC_TIMEOUT_MS)));

        step("orderConfMissing", "answer", attempt(() -> api.getKVConfigValue(ORDER_TOPIC_NAMESPACE, TOPIC, RPC_TIMEOUT_MS)));
        api.putKVConfigValue(ORDER_TOPIC_NAMESPACE, TOPIC, BROKER_NAME + ":2", RPC_TIMEOUT_MS);
        step("orderConf", "answer", attempt(() -> api.getKVConfigValue(ORDER_TOPIC_NAMESPACE, TOPIC, RPC_TIMEOUT_MS)));
        step("orderConfList", "answer", attempt(() -> api.getKVListByNamespace(ORDER_TOPIC_NAMESPACE, RPC_TIMEOUT_MS)));
        // The route carries orderTopicConf only with NamesrvConfig#orderMessageEnable (false).
        step("orderTopicRoute", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        step("orderPublishQueues", "queues", queues(producer.fetchPublishMessageQueues(TOPIC)));
        api.deleteKVConfigValue(ORDER_TOPIC_NAMESPACE, TOPIC, RPC_TIMEOUT_MS);
        step("orderConfDeleted", "answer", attempt(() -> api.getKVConfigValue(ORDER_TOPIC_NAMESPACE, TOPIC, RPC_TIMEOUT_MS)));

        // DefaultRequestProcessor#wipeWritePermOfBroker, as mqadmin wipeWritePerm sends it.
        int wiped = api.wipeWritePermOfBroker(namesrv, BROKER_NAME, RPC_TIMEOUT_MS);
        step("wipeWritePerm", "wipeTopicCount", wiped);
        // The producer's 30 s poll, forced: MQClientInstance#updateTopicRouteInfoFromNameServer.
        step("refreshAfterWipe", "changed", client.updateTopicRouteInfoFromNameServer(TOPIC));
        step("routeAfterWipe", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        step("producerPublishInfoAfterWipe", "publishInfo", publishInfo(producer));
        step("publishQueuesAfterWipe", "queues", attempt(() -> queues(producer.fetchPublishMessageQueues(TOPIC))));
        step("sendAfterWipe", "result", sendOne(producer, TOPIC));

        // The broker's scheduled registration (BrokerController#start's 30 s task), run now: with
        // forceRegister=false it registers only if QUERY_DATA_VERSION says the NameServer's
        // DataVersion differs, which a wipe does not change; so the perm stays wiped.
        broker.registerBrokerAll(true, false, broker.getBrokerConfig().isForceRegister());
        step("routeAfterScheduledRegister", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        // A forced registration (mqadmin updateBrokerConfig's) keeps the wipe too:
        // RouteInfoManager#registerBroker rewrites a master's QueueData only when its DataVersion
        // changed (isBrokerTopicConfigChanged) or the broker is new.
        broker.registerBrokerAll(true, false, true);
        step("routeAfterForcedRegister", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        step("refreshAfterForcedRegister", "changed", client.updateTopicRouteInfoFromNameServer(TOPIC));
        step("sendAfterForcedRegister", "result", sendOne(producer, TOPIC));
        // DefaultRequestProcessor#addWritePermOfBroker, as mqadmin addWritePerm sends it.
        step("addWritePerm", "addTopicCount", api.addWritePermOfBroker(namesrv, BROKER_NAME, RPC_TIMEOUT_MS));
        step("routeAfterAddWritePerm", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        step("refreshAfterAddWritePerm", "changed", client.updateTopicRouteInfoFromNameServer(TOPIC));
        step("sendAfterAddWritePerm", "result", sendOne(producer, TOPIC));

        // The broker's NameServer connection closes (a crash's FIN, as kill -9 gives):
        // BrokerHousekeepingService#onChannelClose drops the broker whose live channel it was.
        closeBrokerConnection(broker);
        step("clusterInfoAfterClose", "answer", waitSettled("broker dropped on close", api, brokerAddr));
        step("routeAfterClose", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        // Its next scheduled registration finds the NameServer without its DataVersion
        // (QUERY_DATA_VERSION changed=true) and registers anew on a new connection, queues and all.
        broker.registerBrokerAll(true, false, broker.getBrokerConfig().isForceRegister());
        step("routeAfterRegisterAgain", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        step("refreshAfterRegisterAgain", "changed", client.updateTopicRouteInfoFromNameServer(TOPIC));
        step("sendAfterRegisterAgain", "result", sendOne(producer, TOPIC));
        memberGroup(broker);
        expiry(broker, api, brokerAddr);

        // What the broker logged while it served: its shutdown logs races of its own (4.9's
        // TransactionalMessageCheckService checking against a closed store), not the NameServer's.
        Files.copy(home.resolve("broker.log"), home.resolve("broker.served.log"));
        // BrokerController#shutdown unregisters from every NameServer (UNREGISTER_BROKER).
        Thread stopping = new Thread(() -> BrokerStartup.shutdown(broker), "stop-broker");
        stopping.start();
        step("clusterInfoAfterShutdown", "answer", waitSettled("broker unregistered", api, brokerAddr));
        step("routeAfterShutdown", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        step("topicsAfterShutdown", "answer", topicList(api));
    }

    /**
     * Everything at WARN and above from the broker (and, on 5.x, the client) into home/broker.log,
     * which check_real_client.sh reads as home/broker.served.log (copied before the broker shuts
     * down): 4.9's BrokerStartup configures logback from
     * ROCKETMQ_HOME/conf/logback_broker.xml, 5.x's shaded logback reads rmq.logback.configurationFile.
     * The client's own files and the broker's config and store stay under home (user.home).
     */
    static void configureLogs(Path home) throws IOException {
        Files.createDirectories(home.resolve("conf"));
        Path config = home.resolve("conf/logback_broker.xml");
        String xml = "<configuration>\n"
            + "  <appender name=\"file\" class=\"ch.qos.logback.core.FileAppender\">\n"
            + "    <file>" + home.resolve("broker.log") + "</file>\n"
            + "    <encoder><pattern>%level %logger %msg%n</pattern></encoder>\n"
            + "  </appender>\n"
            + "  <root level=\"WARN\"><appender-ref ref=\"file\"/></root>\n"
            + "</configuration>\n";
        Files.write(config, xml.getBytes(StandardCharsets.UTF_8));
        System.setProperty("rmq.logback.configurationFile", config.toString());
        System.setProperty("user.home", home.toString());
        System.setProperty("rocketmq.home.dir", home.toString());
    }

    /** 5.x: the NameServers the broker's remoting client found connectable; 4.9: null (all are used). */
    static Object availableNameServers(BrokerController broker) throws Exception {
        Object outer = broker.getBrokerOuterAPI();
        try {
            Object remoting = outer.getClass().getMethod("getRemotingClient").invoke(outer);
            return remoting.getClass().getMethod("getAvailableNameSrvList").invoke(remoting);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * 5.x only: GET_BROKER_MEMBER_GROUP as the broker asks it (BrokerOuterAPI#syncBrokerMemberGroup,
     * BrokerController's member-group sync); 4.9 has neither the call nor the code.
     */
    private void memberGroup(BrokerController broker) {
        Object outer = broker.getBrokerOuterAPI();
        Method sync;
        try {
            sync = outer.getClass().getMethod("syncBrokerMemberGroup", String.class, String.class);
        } catch (NoSuchMethodException e) {
            return;
        }
        step("brokerMemberGroup", "answer", attempt(() -> {
            try {
                return sync.invoke(outer, CLUSTER, BROKER_NAME);
            } catch (InvocationTargetException e) {
                throw (Exception) e.getCause();
            }
        }));
    }

    /**
     * 5.x only: the broker falls silent (isolated: its heartbeat and registration tasks return at
     * once, BrokerController#start) and RouteInfoManager#scanNotActiveBroker expires it after the
     * heartbeatTimeoutMillis it registered (brokerNotActiveTimeoutMillis, sent with
     * enableSlaveActingMaster); then it registers again. 4.9 has a fixed 120 s expiry.
     */
    private void expiry(BrokerController broker, MQClientAPIImpl api, String brokerAddr) throws Exception {
        Method setIsolated;
        try {
            setIsolated = BrokerController.class.getMethod("setIsolated", boolean.class);
        } catch (NoSuchMethodException e) {
            return;
        }
        setIsolated.invoke(broker, true);
        step("clusterInfoAfterExpiry", "answer", waitSettled("broker expired", api, brokerAddr));
        step("routeAfterExpiry", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
        setIsolated.invoke(broker, false);
        broker.registerBrokerAll(true, false, true);
        step("routeAfterExpiryRegister", "answer", attempt(() -> api.getTopicRouteInfoFromNameServer(TOPIC, RPC_TIMEOUT_MS)));
    }

    /** This run's master: broker-a with the settings the steps check. */
    private static BrokerController startBroker(Path home, String namesrv) throws Exception {
        Map<String, Object> settings = new TreeMap<>();
        // The scheduled registration asks QUERY_DATA_VERSION first and registers only when the
        // NameServer's DataVersion differs (BrokerController#needRegister), which the steps check.
        settings.put("forceRegister", false);
        // 5.x: BROKER_HEARTBEAT every brokerHeartbeatInterval (1 s), GET_BROKER_MEMBER_GROUP every
        // syncBrokerMemberGroupPeriod, and registrations carrying heartbeatTimeoutMillis, so the
        // expiry step takes seconds (4.9 has none of these keys and ignores them).
        settings.put("enableSlaveActingMaster", true);
        settings.put("brokerNotActiveTimeoutMillis", 5000);  // 5 heartbeats of margin while it runs
        return startBroker(home, home, namesrv, BROKER_NAME, 0, settings);
    }

    /**
     * BrokerStartup as mqbroker -c runs it: broker `id` of group `name` (0 the master, else a
     * SLAVE) on a free loopback port, its store and broker.properties in `home` (rocketmqHome is
     * `rocketmqHome`, where configureLogs wrote the logback file), with `settings` on top.
     */
    static BrokerController startBroker(Path rocketmqHome, Path home, String namesrv, String name, int id,
                                        Map<String, Object> settings) throws Exception {
        Path store = home.resolve("store");
        Files.createDirectories(home);
        int port = freePortWithFastPort();
        Map<String, Object> config = new TreeMap<>();
        config.put("rocketmqHome", rocketmqHome);
        config.put("brokerClusterName", CLUSTER);
        config.put("brokerName", name);
        config.put("brokerId", id);
        if (id != 0) config.put("brokerRole", "SLAVE");
        config.put("brokerIP1", "127.0.0.1");
        config.put("listenPort", port);
        config.put("bindAddress", "127.0.0.1");  // 5.x's NettyServerConfig; 4.9 binds every interface
        int haPort = freePort();
        while (haPort == port || haPort == port - 2) haPort = freePort();
        config.put("haListenPort", haPort);
        config.put("namesrvAddr", namesrv);
        config.put("autoCreateTopicEnable", false);
        config.put("storePathRootDir", store);
        config.put("storePathCommitLog", store.resolve("commitlog"));
        config.put("mappedFileSizeCommitLog", 1 << 20);
        config.put("mappedFileSizeConsumeQueue", 20 * 1000);  // ConsumeQueue.CQ_STORE_UNIT_SIZE units
        config.put("maxHashSlotNum", 1000);
        config.put("maxIndexNum", 4000);
        config.put("timerWheelEnable", false);  // 5.x: its timer log maps 100 MiB files
        config.putAll(settings);
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, Object> entry : config.entrySet()) {
            text.append(entry.getKey()).append('=').append(entry.getValue()).append('\n');
        }
        Path file = home.resolve("broker.properties");
        Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
        BrokerController controller = BrokerStartup.createBrokerController(new String[] {"-c", file.toString()});
        if (controller == null) throw new IOException("BrokerStartup did not build a broker from " + file);
        BrokerStartup.start(controller);
        return controller;
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    /** Polls call until its answer satisfies done; failures on the way count as not yet. */
    private static Object waitFor(String what, Call<Object> call, Predicate<Object> done) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        Exception last = null;
        while (System.currentTimeMillis() < deadline) {
            try {
                Object answer = call.call();
                if (done.test(answer)) return answer;
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(POLL_MS);
        }
        throw new IllegalStateException("timed out waiting for " + what + " (" + WAIT_LIMIT_MS + " ms)", last);
    }

    /**
     * GET_BROKER_CLUSTER_INFO until two equal answers in a row lack the broker:
     * RouteInfoManager#getAllClusterInfo hands the live tables to the encoder outside the lock, so
     * an answer taken while a removal runs can be half done.
     */
    private static Object waitSettled(String what, MQClientAPIImpl api, String brokerAddr) throws Exception {
        String[] previous = {null};
        return waitFor(what, () -> api.getBrokerClusterInfo(RPC_TIMEOUT_MS), info -> {
            String text = JSON.toJSONString(info);
            boolean settled = text.equals(previous[0]);
            previous[0] = text;
            return settled && !brokerAddrs(info).contains(brokerAddr);
        });
    }

    /**
     * Closes the broker's connection to the NameServer under test, the Netty channel its
     * BrokerOuterAPI's NettyRemotingClient keeps in channelTables (private in both lines).
     */
    private void closeBrokerConnection(BrokerController broker) throws Exception {
        Object outer = broker.getBrokerOuterAPI();
        Field remotingField = outer.getClass().getDeclaredField("remotingClient");
        remotingField.setAccessible(true);
        Object remoting = remotingField.get(outer);
        Field tablesField = remoting.getClass().getDeclaredField("channelTables");
        tablesField.setAccessible(true);
        Object wrapper = ((Map<?, ?>) tablesField.get(remoting)).get(namesrv);
        if (wrapper == null) throw new IllegalStateException("the broker has no connection to " + namesrv);
        Method future = wrapper.getClass().getDeclaredMethod("getChannelFuture");
        future.setAccessible(true);
        ((ChannelFuture) future.invoke(wrapper)).channel().close().sync();
    }

    private static List<String> brokerAddrs(Object clusterInfo) {
        List<String> addrs = new ArrayList<>();
        JSONObject table = JSON.parseObject(JSON.toJSONString(clusterInfo)).getJSONObject("brokerAddrTable");
        if (table == null) return addrs;
        for (Object brokerData : table.values()) {
            JSONObject byId = ((JSONObject) brokerData).getJSONObject("brokerAddrs");
            if (byId != null) {
                for (Object addr : byId.values()) addrs.add(String.valueOf(addr));
            }
        }
        return addrs;
    }

    private Object topicList(MQClientAPIImpl api) {
        return sortedTopics(() -> api.getTopicListFromNameServer(RPC_TIMEOUT_MS));
    }

    /** A TopicList answer with its topics sorted (a HashSet upstream). */
    private Object sortedTopics(Call<Object> call) {
        return attempt(() -> {
            JSONObject list = JSON.parseObject(JSON.toJSONString(call.call()));
            List<String> topics = new ArrayList<>();
            for (Object topic : list.getJSONArray("topicList")) topics.add(String.valueOf(topic));
            topics.sort(null);
            list.put("topicList", topics);
            return list;
        });
    }

    /**
     * The producer's own TopicPublishInfo of the topic, as its sends read it
     * (DefaultMQProducerImpl#tryToFindTopicPublishInfo); sendWhichQueue left out: it starts random.
     */
    private static Object publishInfo(DefaultMQProducer producer) {
        TopicPublishInfo info = producer.getDefaultMQProducerImpl().getTopicPublishInfoTable().get(TOPIC);
        if (info == null) return null;
        Map<String, Object> view = new TreeMap<>();
        view.put("orderTopic", info.isOrderTopic());
        view.put("haveTopicRouterInfo", info.isHaveTopicRouterInfo());
        view.put("messageQueueList", queues(info.getMessageQueueList()));
        Object route = info.getTopicRouteData();
        view.put("topicRouteData", JSON.parse(JSON.toJSONString(route)));
        return view;
    }

    private static List<String> queues(List<MessageQueue> queues) {
        List<String> names = new ArrayList<>();
        for (MessageQueue queue : queues) names.add(queue.getBrokerName() + "/" + queue.getQueueId());
        names.sort(null);
        return names;
    }

    /**
     * Each send's status and broker; the queues as a count per queue id and the offsets each got,
     * since the first queue is random (ThreadLocalIndex) and the round robin then fixed.
     */
    private Object sendAll(DefaultMQProducer producer, String topic, int sends) {
        List<Object> outcomes = new ArrayList<>();
        Map<String, List<Long>> offsetsByQueue = new TreeMap<>();
        for (int i = 0; i < sends; i++) {
            try {
                SendResult result = producer.send(message(topic, i));
                outcomes.add(result.getSendStatus() + " " + result.getMessageQueue().getBrokerName());
                offsetsByQueue.computeIfAbsent(String.valueOf(result.getMessageQueue().getQueueId()), k -> new ArrayList<>())
                    .add(result.getQueueOffset());
            } catch (Exception e) {
                outcomes.add(failure(e));
            }
        }
        for (List<Long> offsets : offsetsByQueue.values()) offsets.sort(null);
        Map<String, Object> all = new TreeMap<>();
        all.put("outcomes", outcomes);
        all.put("offsetsByQueue", offsetsByQueue);
        return all;
    }

    private Object sendOne(DefaultMQProducer producer, String topic) {
        return attempt(() -> {
            SendResult result = producer.send(message(topic, 0));
            return result.getSendStatus() + " " + result.getMessageQueue().getBrokerName();
        });
    }

    private static Message message(String topic, int index) {
        return new Message(topic, ("nssim " + index).getBytes(StandardCharsets.UTF_8));
    }

    /** The answer as JSON, or the exception as {exception, responseCode, message's first line}. */
    private Object attempt(Call<Object> call) {
        try {
            Object answer = call.call();
            return answer == null ? null : JSON.parse(JSON.toJSONString(answer));
        } catch (Exception e) {
            return failure(e);
        }
    }

    private static Map<String, Object> failure(Exception e) {
        Map<String, Object> failure = new TreeMap<>();
        failure.put("exception", e.getClass().getName());
        if (e instanceof MQClientException) failure.put("responseCode", ((MQClientException) e).getResponseCode());
        if (e instanceof MQBrokerException) failure.put("responseCode", ((MQBrokerException) e).getResponseCode());
        String message = String.valueOf(e.getMessage());
        int newline = message.indexOf('\n');
        failure.put("message", newline < 0 ? message : message.substring(0, newline));
        return failure;
    }

    private void step(String name, String field, Object value) {
        Map<String, Object> line = new TreeMap<>();
        line.put("step", name);
        line.put(field, value);
        String text = Json.dump(JSON.parse(JSON.toJSONString(line)));
        for (Map.Entry<String, String> role : addressRoles.entrySet()) {
            // Not inside a longer port: 127.0.0.1:4567 is no prefix of 127.0.0.1:45678's role.
            text = text.replaceAll(Pattern.quote(role.getKey()) + "(?![0-9])", role.getValue());
        }
        out.println(text);
        System.err.println("RealClientCheck: " + name + " at " + (System.currentTimeMillis() - START_MS) + " ms");
    }

    private static final AtomicInteger NEXT_PORT = new AtomicInteger();

    /**
     * A port that is free on every interface, taken below the kernel's ephemeral range (32768 up by
     * default): a port from ServerSocket(0) comes from that range, where an outgoing connection of
     * this JVM or another test may take it between this check and the broker's bind (a 4.9 broker
     * binds the wildcard address, which any local use of the port blocks: "Address already in use"
     * in HAService, seen in CI).
     */
    static int freePort() throws IOException {
        long start = ThreadLocalRandom.current().nextInt(12000);  // apart from other JVMs' picks
        for (int tries = 0; tries < 12000; ++tries) {
            int port = 20000 + (int) ((start + NEXT_PORT.getAndIncrement()) % 12000);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(port));
                return port;
            } catch (IOException taken) {
                // try the next one
            }
        }
        throw new IOException("no free port in 20000-31999");
    }

    /** A free port P whose P - 2 is free too: the broker's fast remoting server listens there. */
    static int freePortWithFastPort() throws IOException {
        while (true) {
            int port = freePort();
            if (port < 1026) continue;
            try (ServerSocket fast = new ServerSocket()) {
                fast.bind(new InetSocketAddress(port - 2));
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
    }
}
