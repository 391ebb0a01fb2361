package nssim.upstream;

import com.alibaba.fastjson.JSONObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * scripts/calibrate.sh's poller: asks every NameServer GET_BROKER_CLUSTER_INFO every interval
 * (one connection each, upstream's RemotingCommand on a plain socket) and writes one JSON line
 * each time the broker addresses a NameServer lists change:
 * {"event":"cluster","t_ms":T,"namesrv":"127.0.0.1:P","brokers":[...]} (sorted), with t_ms the
 * wall-clock instant the request was sent. An unanswered or refused request prints
 * {"event":"poll_failed",...} once per failure streak and is retried on a new connection.
 * usage: ClusterPoller --out FILE --namesrv A;B;C [--interval-ms 100]
 */
public final class ClusterPoller {
    private static final int GET_BROKER_CLUSTER_INFO = 106;  // RequestCode
    private static final int SUCCESS = 0;                    // ResponseCode
    private static final int ANSWER_TIMEOUT_MS = 1000;

    private static final class Target {
        final String addr;
        final InetSocketAddress socketAddress;
        WireChannel channel;
        TreeSet<String> listed;  // null until the first answer
        boolean failing;

        Target(String addr) {
            this.addr = addr;
            int colon = addr.lastIndexOf(':');
            socketAddress = new InetSocketAddress(addr.substring(0, colon),
                Integer.parseInt(addr.substring(colon + 1)));
        }
    }

    private ClusterPoller() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Cli.options(args, "--out", "--namesrv", "--interval-ms");
        Cli.openOutput(Cli.required(options, "--out"));
        String namesrv = Cli.required(options, "--namesrv");
        long intervalMs = Long.parseLong(options.getOrDefault("--interval-ms", "100"));
        List<Target> targets = new ArrayList<>();
        for (String addr : namesrv.split(";")) targets.add(new Target(addr));
        int opaque = 0;
        long next = System.currentTimeMillis();
        while (true) {
            for (Target target : targets) poll(target, ++opaque);
            next += intervalMs;
            long wait = next - System.currentTimeMillis();
            if (wait > 0) Thread.sleep(wait);
        }
    }

    private static void poll(Target target, int opaque) {
        long sentMs = System.currentTimeMillis();
        try {
            if (target.channel == null) target.channel = new WireChannel(target.socketAddress);
            RemotingCommand request = RemotingCommand.createRequestCommand(GET_BROKER_CLUSTER_INFO, null);
            request.setOpaque(opaque);
            target.channel.send(request);
            RemotingCommand response = target.channel.awaitResponse(opaque, ANSWER_TIMEOUT_MS);
            if (response == null) throw new IOException("no answer in " + ANSWER_TIMEOUT_MS + " ms");
            // RouteInfoManager#getAllClusterInfo encodes outside its lock: a SYSTEM_ERROR answer
            // (ConcurrentModificationException during a removal) is skipped, the next poll retries.
            if (response.getCode() != SUCCESS || response.getBody() == null) return;
            TreeSet<String> listed = brokerAddrs(response.getBody());
            target.failing = false;
            if (listed.equals(target.listed)) return;
            target.listed = listed;
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("event", "cluster");
            line.put("t_ms", sentMs);
            line.put("namesrv", target.addr);
            line.put("brokers", new ArrayList<>(listed));
            Cli.emit(line);
        } catch (Exception e) {
            closeQuietly(target);
            if (target.failing) return;
            target.failing = true;
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("event", "poll_failed");
            line.put("t_ms", sentMs);
            line.put("namesrv", target.addr);
            line.put("exception", e.getClass().getSimpleName());
            Cli.emit(line);
        }
    }

    /** Every address of ClusterInfo#brokerAddrTable (brokerName -> BrokerData#brokerAddrs). */
    private static TreeSet<String> brokerAddrs(byte[] body) {
        TreeSet<String> addrs = new TreeSet<>();
        Object parsed = Json.parse(new String(body, StandardCharsets.UTF_8));
        JSONObject table = ((JSONObject) parsed).getJSONObject("brokerAddrTable");
        if (table == null) return addrs;
        for (Object brokerData : table.values()) {
            JSONObject byId = ((JSONObject) brokerData).getJSONObject("brokerAddrs");
            if (byId == null) continue;
            for (Object addr : byId.values()) addrs.add(String.valueOf(addr));
        }
        return addrs;
    }

    private static void closeQuietly(Target target) {
        if (target.channel == null) return;
        try {
            target.channel.close();
        } catch (IOException ignored) {
            // the connection is being replaced anyway
        }
        target.channel = null;
    }
}
