package nssim.upstream;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Paced sessions (ReplayOnWire --paced --fresh-namesrv), each against a fresh NameServer of its
 * own, `parallel` at a time: a paced session mostly waits for its lines' at_ms. What would make
 * a line late is kept out of the sessions' way: the JVM is warmed up first, a wave's NameServers
 * all start before any of its sessions does, and session j of a wave starts j * stagger after
 * the first, so that bursts of lines at the same at_ms in two sessions do not meet.
 */
final class PacedSessions {
    private PacedSessions() {
    }

    static void run(List<String> files, Path scratch, Path outDir, int defaultVersion, int noResponseMs,
            int parallel, long staggerMs) throws Exception {
        warmUp(scratch, Paths.get(files.get(0)), defaultVersion, noResponseMs);
        ExecutorService sessions = Executors.newFixedThreadPool(parallel);
        for (int first = 0; first < files.size(); first += parallel) {
            int end = Math.min(files.size(), first + parallel);
            List<InProcessNamesrv> namesrvs = new ArrayList<>();
            for (int index = first; index < end; index++) {
                namesrvs.add(InProcessNamesrv.start(scratch.resolve("namesrv-" + index),
                    InProcessNamesrv.settingsFor(Paths.get(files.get(index)))));
            }
            long waveNanos = System.nanoTime();
            List<Future<Void>> runs = new ArrayList<>();
            for (int index = first; index < end; index++) {
                Path session = Paths.get(files.get(index));
                InProcessNamesrv namesrv = namesrvs.get(index - first);
                long startNanos = waveNanos + (index - first) * staggerMs * 1_000_000L;
                runs.add(sessions.submit(() -> {
                    sleepUntil(startNanos);
                    replay(session, new ReplayOnWire(namesrv.address(), defaultVersion, noResponseMs, true), outDir);
                    return null;
                }));
            }
            for (Future<Void> run : runs) {
                try {
                    run.get();
                } catch (ExecutionException failed) {  // a session that failed ends the whole run
                    failed.getCause().printStackTrace();
                    System.exit(1);
                }
            }
            for (InProcessNamesrv namesrv : namesrvs) namesrv.stop();
        }
        sessions.shutdown();
    }

    /**
     * The first session once, unpaced, against a NameServer of its own, its answers dropped:
     * loading and initialising the classes of both sides' request paths took 200-350 ms, which
     * would have made the first lines of the first sessions that late.
     */
    private static void warmUp(Path scratch, Path session, int defaultVersion, int noResponseMs) throws Exception {
        InProcessNamesrv namesrv = InProcessNamesrv.start(scratch.resolve("warm-up"), InProcessNamesrv.settingsFor(session));
        try {
            ReplayOnWire.replayFile(new ReplayOnWire(namesrv.address(), defaultVersion, noResponseMs, false), session, null);
        } finally {
            namesrv.stop();
        }
    }

    /** Replays into outDir/X.jsonl and writes outDir/X.late_ms, how late X's latest line was done. */
    private static void replay(Path session, ReplayOnWire replay, Path outDir) throws Exception {
        String name = session.getFileName().toString();
        ReplayOnWire.replayFile(replay, session, outDir.resolve(name));
        String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        Files.write(outDir.resolve(stem + ".late_ms"), (replay.maxLateMs() + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long waitNanos = nanos - System.nanoTime();
        if (waitNanos > 0) Thread.sleep(waitNanos / 1_000_000L, (int) (waitNanos % 1_000_000L));
    }
}
