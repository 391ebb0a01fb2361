package nssim.upstream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.namesrv.NamesrvStartup;

/**
 * A real NameServer started by upstream's own NamesrvStartup#main0 inside this JVM, with its home
 * (ROCKETMQ_HOME, user.home: kvConfig.json, namesrv.properties) in a folder of its own, on a free
 * loopback port; stopped by NamesrvStartup#shutdown.
 */
final class InProcessNamesrv {
    private final NamesrvController controller;
    private final InetSocketAddress address;

    private InProcessNamesrv(NamesrvController controller, InetSocketAddress address) {
        this.controller = controller;
        this.address = address;
    }

    /**
     * Starts one with `settings` (properties text, maybe empty) added to its namesrv.properties.
     * Synchronized: NamesrvConfig reads user.home and rocketmq.home.dir when it is built.
     */
    static synchronized InProcessNamesrv start(Path home, String settings) throws IOException {
        Files.createDirectories(home.resolve("conf"));
        // 4.9's NamesrvStartup configures logback from ROCKETMQ_HOME/conf/logback_namesrv.xml.
        Files.write(home.resolve("conf/logback_namesrv.xml"),
            "<configuration><root level=\"OFF\"/></configuration>\n".getBytes(StandardCharsets.UTF_8));
        int port = freePort();
        // Where NamesrvConfig#configStorePath points by default, which NamesrvStartup sets to -c's.
        Files.createDirectories(home.resolve("namesrv"));
        Path config = home.resolve("namesrv/namesrv.properties");
        // bindAddress is 5.x's (4.9 binds every interface and ignores the key).
        Files.write(config, ("listenPort=" + port + "\nbindAddress=127.0.0.1\n" + settings).getBytes(StandardCharsets.UTF_8));
        System.setProperty("user.home", home.toString());
        System.setProperty("rocketmq.home.dir", home.toString());
        NamesrvController controller = NamesrvStartup.main0(new String[] {"-c", config.toString()});
        if (controller == null) throw new IOException("NamesrvStartup did not start a NameServer in " + home);
        return new InProcessNamesrv(controller, new InetSocketAddress("127.0.0.1", port));
    }

    /** What a session file X.jsonl adds to namesrv.properties: its sibling X.namesrv.properties, if any. */
    static String settingsFor(Path session) throws IOException {
        String name = session.getFileName().toString();
        String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        Path settings = session.resolveSibling(stem + ".namesrv.properties");
        return Files.exists(settings) ? new String(Files.readAllBytes(settings), StandardCharsets.UTF_8) : "";
    }

    InetSocketAddress address() {
        return address;
    }

    /** Stops it on a thread of its own: 5.x's shutdown takes 3 s, which no later session needs. */
    void stop() {
        Thread stopping = new Thread(() -> NamesrvStartup.shutdown(controller), "stop-namesrv");
        stopping.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
