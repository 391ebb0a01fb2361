package nssim.upstream;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Option parsing and JSON-line output shared by the calibration programs. */
final class Cli {
    private Cli() {}

    /** --name value pairs; any other word, or a name not in known, exits 2 with one line. */
    static Map<String, String> options(String[] args, String... known) {
        List<String> names = Arrays.asList(known);
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!names.contains(args[i]) || i + 1 >= args.length) {
                fail("expected one of " + names + " followed by a value, got '" + args[i] + "'");
            }
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) fail("missing " + name);
        return value;
    }

    static void fail(String message) {
        System.err.println(message);
        System.exit(2);
    }

    /**
     * The JSON lines go to a file of their own: the 5.x client's shaded logback prints its status
     * on stdout.
     */
    private static PrintStream out = System.out;

    static void openOutput(String path) throws IOException {
        out = new PrintStream(new FileOutputStream(path), false, "UTF-8");
    }

    static synchronized void emit(Map<String, Object> line) {
        out.println(Json.dump(line));
        out.flush();
    }
}
