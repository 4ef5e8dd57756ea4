package searchbook.realnode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The launcher's key=value arguments and the node settings every version shares (compiled
 * into each version's launcher; it names no engine class, so Elasticsearch's and OpenSearch's
 * launchers both use it).
 */
final class LaunchOptions {
    private final Map<String, String> values = new HashMap<>();

    LaunchOptions(String[] args) {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) throw new IllegalArgumentException("arguments are key=value, got " + arg);
            values.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
    }

    String required(String key) {
        String value = values.get(key);
        if (value == null) throw new IllegalArgumentException("missing " + key + "=...");
        return value;
    }

    String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    boolean flag(String key) {
        return Boolean.parseBoolean(values.getOrDefault(key, "false"));
    }

    /**
     * Creates the scratch home (config with a console-only log4j2.properties, empty plugins and
     * modules folders) and returns the settings of a single loopback node living in it, for
     * the engine's `Settings.builder().loadFromMap(...)`.
     */
    Map<String, Object> singleNodeSettings() throws IOException {
        Path home = Path.of(required("home")).toAbsolutePath();
        Path config = home.resolve("config");
        Files.createDirectories(config);
        Files.createDirectories(home.resolve("plugins"));
        Files.createDirectories(home.resolve("modules"));
        Files.writeString(config.resolve("log4j2.properties"), LOG4J_CONFIG);
        Map<String, Object> settings = new java.util.LinkedHashMap<>();
        settings.put("path.home", home.toString());
        settings.put("path.data", home.resolve("data").toString());
        settings.put("path.logs", home.resolve("logs").toString());
        settings.put("cluster.name", get("cluster.name", "searchbook-test"));
        settings.put("node.name", get("node.name", "searchbook-real-node"));
        String seedHosts = get("seed.hosts", "");
        if (seedHosts.isEmpty()) {
            settings.put("discovery.type", "single-node");
        } else {
            // One node of a loopback cluster: it finds the others at these transport addresses;
            // the master-eligible node that starts it names itself in initial.master. node.roles
            // may be empty: a coordinating-only node.
            settings.put("discovery.seed_hosts", seedHosts);
            String initialMaster = get("initial.master", "");
            if (!initialMaster.isEmpty()) settings.put("cluster.initial_master_nodes", initialMaster);
            // A list, not a string: an empty string is read as no setting at all, which gives
            // the node every role (so the "coordinating-only" node could hold the shards).
            String roles = required("node.roles");
            settings.put("node.roles", roles.isEmpty() ? List.of() : List.of(roles.split(",")));
        }
        settings.put("network.host", "127.0.0.1");
        settings.put("http.port", required("http.port"));
        settings.put("transport.port", required("transport.port"));
        // The disk threshold would turn indices read-only on a nearly full scratch disk.
        settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
        return settings;
    }

    Path configDir() {
        return Path.of(required("home")).toAbsolutePath().resolve("config");
    }

    /** Ends this JVM when the process it serves (or, when asked, stdin) is gone. */
    void exitWhenParentEnds() {
        StopWatch.exitWhenParentEnds(values.get("parent.pid"), flag("stop.on.stdin.eof"));
    }

    /** Console logging at warn, to stderr: the launcher's stdout carries only the ready line. */
    private static final String LOG4J_CONFIG = String.join(
        "\n",
        "status = error",
        "appender.console.type = Console",
        "appender.console.name = console",
        "appender.console.target = SYSTEM_ERR",
        "appender.console.layout.type = PatternLayout",
        "appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] %m%n",
        "rootLogger.level = warn",
        "rootLogger.appenderRef.console.ref = console",
        ""
    );

    private static final String READY_LINE = "searchbook real elasticsearch started";

    /**
     * Starts the node (`node::start`), closes it cleanly on SIGTERM or SIGINT, tells the starter
     * it is up (on the stdout saved before the engine's logging took System.out over), then
     * blocks: the engine's own threads are daemons (its bootstrap keeps a thread alive for this).
     */
    static void run(java.util.concurrent.Callable<?> start, AutoCloseable node, java.io.PrintStream stdout) throws Exception {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (Exception e) {
                // Stopping anyway: the process exits next.
            }
        }, "searchbook-real-node-stop"));
        start.call();
        stdout.println(READY_LINE);
        stdout.flush();
        Thread.currentThread().join();
    }
}
