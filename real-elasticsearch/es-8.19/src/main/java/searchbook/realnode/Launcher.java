package searchbook.realnode;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.ClasspathPluginsNode;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.Plugin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts one real Elasticsearch 8.x node in this JVM from Maven Central's jars.
 * Arguments are key=value: home (scratch folder), http.port, transport.port, parent.pid,
 * and security=true for the secured node (see SecuredNode; the elastic user's password comes
 * from the environment). See LaunchOptions for when the node stops.
 */
public final class Launcher {
    public static void main(String[] args) throws Exception {
        // Elasticsearch's logging takes over System.out; the ready line goes to the real stdout.
        java.io.PrintStream stdout = System.out;
        LaunchOptions options = new LaunchOptions(args);
        options.exitWhenParentEnds();
        Path home = Path.of(options.required("home")).toAbsolutePath();
        boolean security = options.flag("security");
        Path config = home.resolve("config");
        Files.createDirectories(config);
        Files.createDirectories(home.resolve("plugins"));
        Files.createDirectories(home.resolve("modules"));
        Files.writeString(config.resolve("log4j2.properties"), LaunchOptions.LOG4J_CONFIG);

        Settings.Builder settings = Settings.builder()
            .put("path.home", home.toString())
            .put("path.data", home.resolve("data").toString())
            .put("path.logs", home.resolve("logs").toString())
            .put("cluster.name", options.get("cluster.name", "searchbook-test"))
            .put("node.name", options.get("node.name", "searchbook-real-node"))
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", options.required("http.port"))
            .put("transport.port", options.required("transport.port"))
            // The disk threshold would turn indices read-only on a nearly full scratch disk.
            .put("cluster.routing.allocation.disk.threshold_enabled", false);
        List<Class<? extends Plugin>> plugins = new ArrayList<>();
        plugins.add(org.elasticsearch.transport.netty4.Netty4Plugin.class);
        plugins.add(RootInfoPlugin.class);
        if (security) SecuredNode.configure(settings, plugins);

        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings.build(), Map.of(), config, () -> "searchbook-real-node");
        LogConfigurator.configure(environment, true);

        Node node = new ClasspathPluginsNode(environment, plugins);
        Runnable stop = () -> {
            try {
                node.close();
            } catch (Exception e) {
                // Stopping anyway: the process exits next.
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "searchbook-real-node-stop"));
        node.start();
        stdout.println(LaunchOptions.READY_LINE);
        stdout.flush();
        // Elasticsearch's own threads are daemons (its bootstrap keeps a thread alive for this
        // reason): block until the watch above or a signal ends the JVM.
        Thread.currentThread().join();
    }

    private Launcher() {}
}
