package nssim.upstream;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.common.TopicConfig;

/**
 * A small real cluster held up for `nssim import` (tests/upstream/check_import.sh): in this JVM,
 * broker-a's master and slave and broker-b's master (BrokerStartup#createBrokerController, as
 * mqbroker -c runs it), TopicTest on both masters (4 queues) and OrderTopic on broker-a only (8
 * read, 4 write), each registered with the NameServer. Prints "ready" once all three registered,
 * then holds them until stdin closes.
 * usage: HeldCluster --namesrv HOST:PORT --home DIR
 */
public final class HeldCluster {
    private static final long WAIT_LIMIT_MS = 60000;  // a safety net: the scan is seen in ms

    private HeldCluster() {}

    public static void main(String[] args) throws Exception {
        String namesrv = null;
        String home = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--namesrv")) namesrv = args[i + 1];
            if (args[i].equals("--home")) home = args[i + 1];
        }
        if (namesrv == null || home == null) {
            System.err.println("usage: HeldCluster --namesrv HOST:PORT --home DIR");
            System.exit(2);
        }
        Path root = Paths.get(home);
        RealClientCheck.configureLogs(root);
        int code = 0;
        try {
            BrokerController aMaster = start(root, namesrv, "broker-a", 0);
            BrokerController aSlave = start(root, namesrv, "broker-a", 1);
            BrokerController bMaster = start(root, namesrv, "broker-b", 0);
            topic(aMaster, "TopicTest", 4, 4);
            topic(bMaster, "TopicTest", 4, 4);
            topic(aMaster, "OrderTopic", 8, 4);
            for (BrokerController broker : Arrays.asList(aMaster, aSlave, bMaster)) register(broker, namesrv);
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the cluster until stdin closes
            }
        } catch (Throwable e) {
            System.err.println("HeldCluster: " + e);
            e.printStackTrace();
            code = 1;
        }
        // halt: the brokers' shutdown hooks and their unregistration are not what is tested.
        Runtime.getRuntime().halt(code);
    }

    private static void topic(BrokerController broker, String name, int read, int write) {
        TopicConfig config = new TopicConfig(name, read, write, 6);
        broker.getTopicConfigManager().updateTopicConfig(config);
    }

    /** 5.x registers only with the NameServers its client found connectable: wait for the scan. */
    private static void register(BrokerController broker, String namesrv) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        while (true) {
            Object found = RealClientCheck.availableNameServers(broker);
            if (found == null || ((List<?>) found).contains(namesrv)) break;
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the broker's client never found " + namesrv);
            }
            Thread.sleep(20);
        }
        broker.registerBrokerAll(true, false, true);
    }

    private static BrokerController start(Path root, String namesrv, String name, int id) throws Exception {
        return RealClientCheck.startBroker(root, root.resolve(name + "-" + id), namesrv, name, id,
            new TreeMap<>());
    }
}
