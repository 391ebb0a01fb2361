package nssim.upstream;

import com.alibaba.fastjson.JSONArray;
import com.alibaba.fastjson.JSONObject;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * Sends an nssim replay session (docs/replay.md) to a real NameServer over the remoting protocol
 * and prints one line per input line in the format `nssim replay` prints. One TCP connection per
 * replay channel; a close event closes it. What a real NameServer cannot be shown in real time
 * (a scan on the replay's clock, an idle close with a chosen peer address) is printed as
 * {"skipped": reason}, and the comparison counts it (docs/fidelity.md).
 *
 * --paced replays in real time: each line waits for its at_ms on a clock that starts with the
 * session, and a scan line prints what left brokerAddrTable on the NameServer's own scans since
 * the line before (the session keeps every broker's deadline a margin away from every line,
 * tests/upstream/generate_expiry.py).
 *
 * usage: ReplayOnWire --profile 4.9|5.x [--paced] --addr HOST:PORT [FILE|-]  (a NameServer already up)
 *        ReplayOnWire --profile 4.9|5.x [--paced [--parallel N] [--stagger-ms MS]] --fresh-namesrv SCRATCH --out-dir DIR FILE...
 * The second starts a fresh NameServer for each FILE, with FILE's sibling X.namesrv.properties
 * (for X.jsonl) added to its namesrv.properties when there is one, and writes its answers to
 * DIR/FILE's name; paced, N sessions at a time, each MS after the one before
 * (PacedSessions), and DIR/X.late_ms says how late X's latest line was done.
 */
public final class ReplayOnWire {
    private static final int REGISTER_BROKER = 103;
    private static final int UNREGISTER_BROKER = 104;
    private static final int GET_BROKER_CLUSTER_INFO = 106;
    /** The default `version` of docs/replay.md: 409 (4.9), 479 (5.x). */
    private static final int VERSION_4_9 = 409;
    private static final int VERSION_5_X = 479;
    /**
     * How long a request may stay unanswered before it counts as no response: 4.9 answers nothing
     * to a code it does not know, and no event says so. A loopback answer takes milliseconds.
     */
    private final int noResponseMs;
    /** The safety net for a close's effect to show; never reached when the NameServer is healthy. */
    private static final long CLOSE_EFFECT_TIMEOUT_MS = 20000;

    private final InetSocketAddress address;
    private final int defaultVersion;
    private final boolean paced;
    /** System.nanoTime() at at_ms 0 of a paced session, set by its first line. */
    private long originNanos;
    private boolean started;
    private long lastAtMs;
    /** When the current line of a paced session is due. */
    private long dueNanos;
    /**
     * How long after it was due the latest line of a paced session was done (answered, or its
     * effect seen), in ms: everything a line caused happened within that much of its at_ms.
     */
    private long maxLateMs;
    private final Map<String, WireChannel> channels = new HashMap<>();
    /** brokerAddr -> the replay channel it last registered on (the channel brokerLiveTable holds). */
    private final Map<String, String> registeredOn = new HashMap<>();
    private WireChannel probe;

    ReplayOnWire(InetSocketAddress address, int defaultVersion, int noResponseMs, boolean paced) {
        this.address = address;
        this.defaultVersion = defaultVersion;
        this.noResponseMs = noResponseMs;
        this.paced = paced;
    }

    public static void main(String[] args) throws Exception {
        String addr = null;
        String profile = "5.x";
        String scratch = null;
        String outDir = null;
        int noResponseMs = 1000;
        boolean paced = false;
        int parallel = 1;
        long staggerMs = 0;
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--addr") && i + 1 < args.length) {
                addr = args[++i];
            } else if (args[i].equals("--profile") && i + 1 < args.length) {
                profile = args[++i];
            } else if (args[i].equals("--fresh-namesrv") && i + 1 < args.length) {
                scratch = args[++i];
            } else if (args[i].equals("--out-dir") && i + 1 < args.length) {
                outDir = args[++i];
            } else if (args[i].equals("--no-response-ms") && i + 1 < args.length) {
                noResponseMs = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--paced")) {
                paced = true;
            } else if (args[i].equals("--parallel") && i + 1 < args.length) {
                parallel = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--stagger-ms") && i + 1 < args.length) {
                staggerMs = Long.parseLong(args[++i]);
            } else {
                files.add(args[i]);
            }
        }
        boolean single = addr != null && scratch == null && files.size() <= 1;
        boolean fresh = addr == null && scratch != null && outDir != null && !files.isEmpty();
        boolean validPacing = parallel >= 1 && staggerMs >= 0 && (paced || (parallel == 1 && staggerMs == 0));
        if (!(single || fresh) || !(profile.equals("4.9") || profile.equals("5.x")) || !validPacing) {
            System.err.println("usage: ReplayOnWire --profile 4.9|5.x [--paced] --addr HOST:PORT [FILE|-]\n"
                + "       ReplayOnWire --profile 4.9|5.x [--paced [--parallel N] [--stagger-ms MS]]"
                + " --fresh-namesrv SCRATCH --out-dir DIR FILE...");
            System.exit(2);
        }
        int defaultVersion = profile.equals("4.9") ? VERSION_4_9 : VERSION_5_X;
        PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        if (single) {
            int colon = addr.lastIndexOf(':');
            InetSocketAddress address = new InetSocketAddress(
                addr.substring(0, colon), Integer.parseInt(addr.substring(colon + 1)));
            String file = files.isEmpty() ? "-" : files.get(0);
            BufferedReader reader = file.equals("-")
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Paths.get(file), StandardCharsets.UTF_8);
            replaySession(new ReplayOnWire(address, defaultVersion, noResponseMs, paced), reader, stdout);
            return;
        }
        // One JVM, a fresh NameServer (NamesrvStartup in this process) per session: a JVM start
        // per session would cost seconds each.
        System.setOut(System.err);  // NamesrvStartup prints its start-up lines on System.out
        // No TLS: "permissive" (the default) makes every start build a self-signed certificate
        // (0.6 s); the replay speaks plain TCP either way.
        System.setProperty("tls.server.mode", "disabled");
        if (paced) {
            PacedSessions.run(files, Paths.get(scratch), Paths.get(outDir), defaultVersion, noResponseMs,
                parallel, staggerMs);
        } else {
            for (int index = 0; index < files.size(); index++) {
                Path session = Paths.get(files.get(index));
                InProcessNamesrv namesrv = InProcessNamesrv.start(Paths.get(scratch, "namesrv-" + index),
                    InProcessNamesrv.settingsFor(session));
                try {
                    replayFile(new ReplayOnWire(namesrv.address(), defaultVersion, noResponseMs, false),
                        session, Paths.get(outDir).resolve(session.getFileName()));
                } finally {
                    namesrv.stop();
                }
            }
        }
        stdout.flush();
        System.exit(0);  // the stopped NameServers' Netty threads end on their own time
    }

    /** Replays the session file into `out`, or nowhere when it is null. */
    static void replayFile(ReplayOnWire replay, Path session, Path out) throws Exception {
        OutputStream sink = out == null ? new ByteArrayOutputStream() : new FileOutputStream(out.toFile());
        try (BufferedReader reader = Files.newBufferedReader(session, StandardCharsets.UTF_8);
             PrintStream printer = new PrintStream(sink, false, "UTF-8")) {
            replaySession(replay, reader, printer);
        }
    }

    long maxLateMs() {
        return maxLateMs;
    }

    private static void replaySession(ReplayOnWire replay, BufferedReader reader, PrintStream out)
            throws Exception {
        String line;
        while ((line = reader.readLine()) != null) {
            out.println(replay.process(line));
            if (replay.started) {
                replay.maxLateMs = Math.max(replay.maxLateMs, (System.nanoTime() - replay.dueNanos) / 1_000_000L);
            }
        }
        out.flush();
        replay.closeAll();
    }

    private String process(String line) throws Exception {
        Object parsed;
        try {
            parsed = Json.parse(line);
        } catch (RuntimeException e) {
            return skipped("not JSON");
        }
        JSONObject object = Json.object(parsed);
        if (object == null) return skipped("not a JSON object");
        if (paced && "scan".equals(object.getString("event"))) return pacedScan(object);
        waitForAtMs(object);
        if (object.containsKey("event")) return event(object);
        return request(object);
    }

    /**
     * Paced: sleeps until the line's at_ms (docs/replay.md: the previous line's when absent) on
     * the session's clock, whose 0 is when the first line came, less that line's at_ms.
     */
    private void waitForAtMs(JSONObject line) throws InterruptedException {
        if (!paced) return;
        long atMs = line.containsKey("at_ms") ? line.getLongValue("at_ms") : lastAtMs;
        lastAtMs = atMs;
        if (!started) {
            originNanos = System.nanoTime() - atMs * 1_000_000L;
            started = true;
        }
        dueNanos = originNanos + atMs * 1_000_000L;
        long waitNanos = dueNanos - System.nanoTime();
        if (waitNanos > 0) Thread.sleep(waitNanos / 1_000_000L, (int) (waitNanos % 1_000_000L));
    }

    /**
     * A paced scan line: the NameServer scans on its own clock, every scanNotActiveBrokerInterval
     * (5.x) or 10 s (4.9). The session keeps every deadline a margin away from every line, and
     * the first line after a deadline is a scan, so what left brokerAddrTable between the line
     * before and this line's at_ms is what nssim's scan at at_ms removes.
     */
    private String pacedScan(JSONObject line) throws Exception {
        TreeSet<String> before = settledBrokerAddrs(new TreeSet<String>());
        waitForAtMs(line);
        TreeSet<String> removed = new TreeSet<>(before);
        removed.removeAll(settledBrokerAddrs(new TreeSet<String>()));
        // Their connections were closed by the NameServer (RemotingHelper#closeChannel).
        registeredOn.keySet().removeAll(removed);
        return "{\"event\":\"scan\",\"removed\":" + Json.dump(new JSONArray(new ArrayList<Object>(removed))) + "}";
    }

    private String request(JSONObject line) throws Exception {
        int code = line.getIntValue("code");
        String channelName = line.containsKey("channel") ? line.getString("channel") : "default";
        boolean oneway = line.getBooleanValue("oneway");
        RemotingCommand request = RemotingCommand.createRequestCommand(code, null);
        request.setVersion(line.containsKey("version") ? line.getIntValue("version") : defaultVersion);
        HashMap<String, String> extFields = new HashMap<>();
        JSONObject given = line.getJSONObject("extFields");
        if (given != null) {
            for (Map.Entry<String, Object> field : given.entrySet()) {
                extFields.put(field.getKey(), String.valueOf(field.getValue()));  // Java's toString
            }
        }
        request.setExtFields(extFields);
        Object body = line.get("body");
        if (body != null) {
            String raw = body instanceof String ? (String) body : Json.dump(body);
            request.setBody(raw.getBytes(StandardCharsets.UTF_8));
        }
        WireChannel channel = channel(channelName);
        if (oneway) {
            request.markOnewayRPC();
            channel.send(request);
            return "{\"noResponse\":true}";
        }
        String brokerAddr = extFields.get("brokerAddr");
        // 5.x answers UNREGISTER_BROKER at once and unregisters later, on BatchUnregistrationService
        // (DefaultRequestProcessor#unregisterBroker, RouteInfoManager#submitUnRegisterBrokerRequest);
        // nssim drains that queue before the next line, so the driver waits for the broker to go.
        boolean batched = code == UNREGISTER_BROKER && defaultVersion == VERSION_5_X && brokerAddr != null;
        boolean wasRegistered = batched && settledBrokerAddrs(new TreeSet<String>()).contains(brokerAddr);
        RemotingCommand response;
        try {
            channel.send(request);
            response = channel.awaitResponse(request.getOpaque(), noResponseMs);
        } catch (IOException closed) {
            // The NameServer closed this connection: a scan expired a broker on it
            // (RemotingHelper#closeChannel) that the session thought alive. nssim never answers
            // so, and the comparison reports it; the channel's next request reconnects.
            channels.remove(channelName).close();
            return "{\"closedByNameServer\":true}";
        }
        if (response == null) return "{\"noResponse\":true}";
        if (wasRegistered && response.getCode() == 0) {
            settledBrokerAddrs(new TreeSet<String>(Collections.singleton(brokerAddr)));
        }
        if (code == REGISTER_BROKER && response.getCode() == 0 && brokerAddr != null) {
            registeredOn.put(brokerAddr, channelName);
        } else if (code == UNREGISTER_BROKER && brokerAddr != null) {
            registeredOn.remove(brokerAddr);
        }
        return responseLine(response);
    }

    private String event(JSONObject line) throws Exception {
        String kind = line.getString("event");
        if ("scan".equals(kind)) {
            return skipped("scan: the real NameServer scans on its own clock");
        }
        if ("idle".equals(kind) && line.containsKey("remoteAddr")) {
            return skipped("idle with a remoteAddr: a real socket's peer address cannot be chosen");
        }
        if (!"close".equals(kind) && !"idle".equals(kind)) return skipped("unknown event");
        String channelName = line.containsKey("channel") ? line.getString("channel") : "default";
        // Netty's idle handler closes the channel: on the wire both are the connection closing.
        TreeSet<String> before = settledBrokerAddrs(new TreeSet<String>());
        TreeSet<String> expectedGone = new TreeSet<>();
        for (Map.Entry<String, String> entry : registeredOn.entrySet()) {
            if (entry.getValue().equals(channelName) && before.contains(entry.getKey())) {
                expectedGone.add(entry.getKey());
            }
        }
        WireChannel channel = channels.remove(channelName);
        if (channel != null) channel.close();
        TreeSet<String> after = settledBrokerAddrs(expectedGone);
        for (String addr : expectedGone) registeredOn.remove(addr);
        TreeSet<String> removed = new TreeSet<>(before);
        removed.removeAll(after);
        return "{\"event\":" + Json.dump(kind) + ",\"removed\":" + Json.dump(new JSONArray(new ArrayList<Object>(removed))) + "}";
    }

    private static boolean intersects(TreeSet<String> a, TreeSet<String> b) {
        for (String item : b) {
            if (a.contains(item)) return true;
        }
        return false;
    }

    /**
     * brokerAddrTable's addresses once the close has been handled (NettyEventExecutor, then 5.x's
     * BatchUnregistrationService, run it on the NameServer's own threads): none of mustBeGone
     * left, and two answers in a row the same. One answer is not enough: getAllClusterInfo
     * serialises the live table outside its lock, so an answer given while a removal runs can
     * miss entries or be a SYSTEM_ERROR (ConcurrentModificationException).
     */
    private TreeSet<String> settledBrokerAddrs(TreeSet<String> mustBeGone) throws Exception {
        long deadline = System.currentTimeMillis() + CLOSE_EFFECT_TIMEOUT_MS;
        TreeSet<String> previous = null;
        while (true) {
            TreeSet<String> now = brokerAddrs();
            boolean settled = now != null && !intersects(now, mustBeGone) && now.equals(previous);
            if (settled || System.currentTimeMillis() > deadline) return now == null ? new TreeSet<String>() : now;
            previous = now;
            Thread.sleep(2);
        }
    }

    /** GET_BROKER_CLUSTER_INFO's brokerAddrTable addresses, asked on a connection of its own; null unless SUCCESS. */
    private TreeSet<String> brokerAddrs() throws Exception {
        if (probe == null) probe = new WireChannel(address);
        RemotingCommand request = RemotingCommand.createRequestCommand(GET_BROKER_CLUSTER_INFO, null);
        probe.send(request);
        RemotingCommand response = probe.awaitResponse(request.getOpaque(), (int) CLOSE_EFFECT_TIMEOUT_MS);
        if (response == null || response.getCode() != 0 || response.getBody() == null) return null;
        TreeSet<String> addrs = new TreeSet<>();
        JSONObject info = Json.object(Json.parse(new String(response.getBody(), StandardCharsets.UTF_8)));
        JSONObject table = info == null ? null : info.getJSONObject("brokerAddrTable");
        if (table == null) return addrs;
        for (Object brokerData : table.values()) {
            JSONObject brokerAddrs = ((JSONObject) brokerData).getJSONObject("brokerAddrs");
            if (brokerAddrs == null) continue;
            for (Object addr : brokerAddrs.values()) addrs.add(String.valueOf(addr));
        }
        return addrs;
    }

    private WireChannel channel(String name) throws IOException {
        WireChannel channel = channels.get(name);
        if (channel == null) {
            channel = new WireChannel(address);
            channels.put(name, channel);
        }
        return channel;
    }

    private void closeAll() throws IOException {
        for (WireChannel channel : channels.values()) channel.close();
        if (probe != null) probe.close();
    }

    // {"code", "remark", "extFields", "body"}, in that order, as nssim's replay writes them.
    private static String responseLine(RemotingCommand response) {
        Map<String, Object> extFields = new LinkedHashMap<>();
        if (response.getExtFields() != null) extFields.putAll(response.getExtFields());
        return "{\"code\":" + response.getCode() + ",\"remark\":" + Json.dump(response.getRemark())
            + ",\"extFields\":" + Json.dump(extFields) + ",\"body\":" + body(response.getBody()) + "}";
    }

    /** The body as JSON when it is JSON (fastjson's legacy encoding included), else as a string. */
    private static String body(byte[] bytes) {
        if (bytes == null) return "null";
        String text = new String(bytes, StandardCharsets.UTF_8);
        String trimmed = text.trim();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            try {
                return Json.dump(Json.parse(text));
            } catch (RuntimeException notJson) {
                // falls through: a body that only looks like JSON is shown as text
            }
        }
        return Json.dump(text);
    }

    private static String skipped(String reason) {
        return "{\"skipped\":" + Json.dump(reason) + "}";
    }
}
