package searchbook.realnode;

import java.util.HashMap;
import java.util.Map;

/** The launcher's key=value arguments (the same for every Elasticsearch version). */
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

    /** Ends this JVM when the process it serves (or, when asked, stdin) is gone. */
    void exitWhenParentEnds() {
        StopWatch.exitWhenParentEnds(values.get("parent.pid"), flag("stop.on.stdin.eof"));
    }

    /** Console logging at warn, to stderr: the launcher's stdout carries only the ready line. */
    static final String LOG4J_CONFIG = String.join(
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

    static final String READY_LINE = "searchbook real elasticsearch started";
}
