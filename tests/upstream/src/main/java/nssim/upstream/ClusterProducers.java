package nssim.upstream;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.impl.producer.TopicPublishInfo;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * scripts/calibrate.sh's producers: creates the topic on every broker master, waits until every
 * NameServer routes it to all of them, then starts N upstream DefaultMQProducers (each its own
 * MQClientInstance, as separate processes would be; producer i starts i * stagger-ms after the
 * first, so their route polls fall at different phases, as nssim's start windows spread them)
 * sending synchronously at a fixed rate. It runs until killed and prints JSON lines:
 * {"event":"send","producer","start_ms","end_ms","outcome":"ok"|"failed","broker"(ok only),
 *  "exception","cause","message"(failed only)};
 * {"event":"route","producer","t_ms","brokers":[brokerName...]} whenever the broker names of the
 * producer's TopicPublishInfo (DefaultMQProducerImpl#getTopicPublishInfoTable) change, checked
 * every 10 ms; the producer's scheduler thread (MQClientFactoryScheduledThread, one per
 * MQClientInstance): {"event":"instance_start","producer","t_ms","end_ms"} around
 * DefaultMQProducer#start (MQClientInstance#startScheduledTask's instant is inside),
 * {"event":"route_query","producer","t_ms"} as each GET_ROUTEINFO_BY_TOPIC of that thread leaves
 * (the producer's RPCHook), {"event":"scheduler","producer","task":"route_poll"|"heartbeat"|
 * "other"|"idle","t_ms"} whenever the task that thread runs changes, read from its stack every
 * 2 ms (the hook alone would not do: NettyRemotingClient calls it only once it has a channel, so
 * a heartbeat to a silent address never reaches it); {"event":"started","producer","t_ms"} and
 * {"event":"all_started","t_ms"}. It starts sending once every NameServer routes the topic to
 * --route-brokers broker names (default: the --brokers count; more when calibrate.sh's
 * SilentBrokers registered others).
 * usage: ClusterProducers --out FILE --namesrv A;B;C --brokers ADDR,ADDR [--producers 3] [--rate 10]
 *        [--topic TopicTest] [--queues 4] [--poll-ms 30000] [--stagger-ms 10000] [--size 1024]
 *        [--route-brokers N]
 */
public final class ClusterProducers {
    private static final int GET_ROUTEINFO_BY_TOPIC = 105;  // RequestCode
    private static final int SUCCESS = 0;                   // ResponseCode
    private static final long ROUTE_WAIT_MS = 60_000;       // a safety net: it takes < 1 s here
    private static final long ROUTE_CHECK_MS = 10;
    // The name of the thread MQClientInstance#scheduledExecutorService runs on.
    private static final String SCHEDULER_THREAD = "MQClientFactoryScheduledThread";
    private static final long SCHEDULER_SAMPLE_MS = 2;

    private ClusterProducers() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Cli.options(args, "--out", "--namesrv", "--brokers", "--producers",
            "--rate", "--topic", "--queues", "--poll-ms", "--stagger-ms", "--size", "--route-brokers");
        Cli.openOutput(Cli.required(options, "--out"));
        String namesrv = Cli.required(options, "--namesrv");
        List<String> brokers = Arrays.asList(Cli.required(options, "--brokers").split(","));
        int count = Integer.parseInt(options.getOrDefault("--producers", "3"));
        double rate = Double.parseDouble(options.getOrDefault("--rate", "10"));
        String topic = options.getOrDefault("--topic", "TopicTest");
        int queues = Integer.parseInt(options.getOrDefault("--queues", "4"));
        int pollMs = Integer.parseInt(options.getOrDefault("--poll-ms", "30000"));
        long staggerMs = Long.parseLong(options.getOrDefault("--stagger-ms", "10000"));
        byte[] body = new byte[Integer.parseInt(options.getOrDefault("--size", "1024"))];
        int routeBrokers = Integer.parseInt(options.getOrDefault("--route-brokers", String.valueOf(brokers.size())));

        List<DefaultMQProducer> producers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            DefaultMQProducer producer = new DefaultMQProducer("producer", routeQueryLog("producer-" + i));
            producer.setNamesrvAddr(namesrv);
            producer.setInstanceName("producer-" + i);  // its own MQClientInstance
            producer.setPollNameServerInterval(pollMs);
            producers.add(producer);
        }
        // The topic is made by an instance of its own, shut down before the producers start: each
        // producer starts with its first send due at once, as nssim's producers do (a send at
        // the start), so its first heartbeat run (1 s after its start) already knows the brokers.
        DefaultMQProducer admin = new DefaultMQProducer("admin");
        admin.setNamesrvAddr(namesrv);
        admin.setInstanceName("admin");
        admin.start();
        createTopic(admin, brokers, topic, queues);
        for (String addr : namesrv.split(";")) awaitRoute(addr, topic, routeBrokers);
        admin.shutdown();
        Set<Long> watched = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {  // the admin's, if it still ends
            if (t.getName().startsWith(SCHEDULER_THREAD)) watched.add(t.getId());
        }

        ScheduledExecutorService ticks = Executors.newScheduledThreadPool(count + 1);
        long periodUs = Math.round(1_000_000 / rate);
        long first = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            DefaultMQProducer producer = producers.get(i);
            String name = "producer-" + i;
            long at = first + i * staggerMs;
            Thread.sleep(Math.max(0, at - System.currentTimeMillis()));
            start(producer, name, watched);
            started("started", name);
            watchRoute(ticks, producer, name, topic);
            // Each producer sends from a cached thread pool of its own, as nssim's producer model
            // does (sim/client/send_thread_pool.h): the queue a send picks depends on its thread.
            ExecutorService sends = Executors.newCachedThreadPool();
            ticks.scheduleAtFixedRate(() -> sends.execute(() -> send(producer, name, topic, body)),
                0, periodUs, TimeUnit.MICROSECONDS);
        }
        started("all_started", null);
    }

    /** MQClientAPIImpl#createTopic on each master, as mqadmin updateTopic does (perm 6). */
    private static void createTopic(DefaultMQProducer producer, List<String> brokers, String topic,
            int queues) throws Exception {
        for (String broker : brokers) {
            producer.getDefaultMQProducerImpl().getmQClientFactory().getMQClientAPIImpl()
                .createTopic(broker, producer.getCreateTopicKey(), new TopicConfig(topic, queues, queues, 6), 3000);
        }
    }

    /** Until the NameServer at addr routes topic to brokers broker groups. */
    private static void awaitRoute(String addr, String topic, int brokers) throws Exception {
        int colon = addr.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(addr.substring(0, colon),
            Integer.parseInt(addr.substring(colon + 1)));
        long deadline = System.currentTimeMillis() + ROUTE_WAIT_MS;
        try (WireChannel channel = new WireChannel(address)) {
            for (int opaque = 1; ; opaque++) {
                RemotingCommand request = RemotingCommand.createRequestCommand(GET_ROUTEINFO_BY_TOPIC, null);
                request.addExtField("topic", topic);
                request.setOpaque(opaque);
                channel.send(request);
                RemotingCommand response = channel.awaitResponse(opaque, 3000);
                if (response != null && response.getCode() == SUCCESS && response.getBody() != null) {
                    Object route = Json.parse(new String(response.getBody(), StandardCharsets.UTF_8));
                    List<?> brokerDatas = ((com.alibaba.fastjson.JSONObject) route).getJSONArray("brokerDatas");
                    if (brokerDatas != null && brokerDatas.size() == brokers) return;
                }
                if (System.currentTimeMillis() > deadline) {
                    Cli.fail("NameServer " + addr + " did not route " + topic + " to " + brokers
                        + " brokers in " + ROUTE_WAIT_MS + " ms");
                }
                Thread.sleep(ROUTE_CHECK_MS);
            }
        }
    }

    private static void start(DefaultMQProducer producer, String name, Set<Long> watched) throws Exception {
        long before = System.currentTimeMillis();
        producer.start();
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", "instance_start");
        line.put("producer", name);
        line.put("t_ms", before);
        line.put("end_ms", System.currentTimeMillis());
        Cli.emit(line);
        watchScheduler(name, watched);
    }

    /** Logs each route query of the scheduler thread as it leaves (doBeforeRequest runs on the caller). */
    private static RPCHook routeQueryLog(String name) {
        return new RPCHook() {
            @Override
            public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
                if (request.getCode() != GET_ROUTEINFO_BY_TOPIC
                    || !Thread.currentThread().getName().startsWith(SCHEDULER_THREAD)) {
                    return;
                }
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("event", "route_query");
                line.put("producer", name);
                line.put("t_ms", System.currentTimeMillis());
                Cli.emit(line);
            }

            @Override
            public void doAfterResponse(String remoteAddr, RemotingCommand request, RemotingCommand response) {}
        };
    }

    /**
     * Samples the stack of the scheduler thread the producer's MQClientInstance#start just made
     * (the one of that name not yet watched) and logs each change of the task it runs:
     * MQClientInstance#updateTopicRouteInfoFromNameServer (route_poll), cleanOfflineBroker +
     * sendHeartbeatToAllBrokerWithLock (heartbeat), another task, or none (idle).
     */
    private static void watchScheduler(String name, Set<Long> watched) {
        Thread scheduler = null;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(SCHEDULER_THREAD) && !watched.contains(t.getId())) scheduler = t;
        }
        if (scheduler == null) Cli.fail("no new " + SCHEDULER_THREAD + " after " + name + " started");
        watched.add(scheduler.getId());
        Thread target = scheduler;
        Thread watcher = new Thread(() -> {
            String last = null;
            while (true) {
                String task = taskOf(target.getStackTrace());
                if (!task.equals(last)) {
                    last = task;
                    Map<String, Object> line = new LinkedHashMap<>();
                    line.put("event", "scheduler");
                    line.put("producer", name);
                    line.put("task", task);
                    line.put("t_ms", System.currentTimeMillis());
                    Cli.emit(line);
                }
                try {
                    Thread.sleep(SCHEDULER_SAMPLE_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "scheduler-watch-" + name);
        watcher.setDaemon(true);
        watcher.start();
    }

    private static String taskOf(StackTraceElement[] stack) {
        boolean inClient = false;
        for (StackTraceElement frame : stack) {
            String method = frame.getMethodName();
            if (method.equals("sendHeartbeatToAllBrokerWithLock") || method.equals("cleanOfflineBroker")) {
                return "heartbeat";
            }
            if (method.equals("updateTopicRouteInfoFromNameServer")) return "route_poll";
            inClient |= frame.getClassName().startsWith("org.apache.rocketmq.client.");
        }
        return inClient ? "other" : "idle";
    }

    private static void watchRoute(ScheduledExecutorService ticks, DefaultMQProducer producer,
            String name, String topic) {
        TreeSet<String>[] last = new TreeSet[1];
        ticks.scheduleWithFixedDelay(() -> {
            TopicPublishInfo info = producer.getDefaultMQProducerImpl().getTopicPublishInfoTable().get(topic);
            TreeSet<String> names = new TreeSet<>();
            if (info != null) {
                for (MessageQueue queue : info.getMessageQueueList()) names.add(queue.getBrokerName());
            }
            if (names.equals(last[0])) return;
            last[0] = names;
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("event", "route");
            line.put("producer", name);
            line.put("t_ms", System.currentTimeMillis());
            line.put("brokers", new ArrayList<>(names));
            Cli.emit(line);
        }, 0, ROUTE_CHECK_MS, TimeUnit.MILLISECONDS);
    }

    private static void send(DefaultMQProducer producer, String name, String topic, byte[] body) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", "send");
        line.put("producer", name);
        long start = System.currentTimeMillis();
        line.put("start_ms", start);
        line.put("thread", Thread.currentThread().getName());
        try {
            SendResult result = producer.send(new Message(topic, body));
            line.put("end_ms", System.currentTimeMillis());
            line.put("outcome", "ok");
            line.put("broker", result.getMessageQueue().getBrokerName());
            line.put("queue", result.getMessageQueue().getQueueId());
        } catch (Exception e) {
            line.put("end_ms", System.currentTimeMillis());
            line.put("outcome", "failed");
            line.put("exception", e.getClass().getSimpleName());
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            line.put("cause", cause.getClass().getSimpleName());
            String message = String.valueOf(e.getMessage());
            int newline = message.indexOf('\n');
            line.put("message", newline < 0 ? message : message.substring(0, newline));
        }
        Cli.emit(line);
    }

    private static void started(String event, String name) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", event);
        if (name != null) line.put("producer", name);
        line.put("t_ms", System.currentTimeMillis());
        Cli.emit(line);
    }
}
