package searchbook.realnode;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.ClasspathPluginsNode;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.Plugin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts one real Elasticsearch 8.x node in this JVM from Maven Central's jars.
 * Arguments are key=value: home (scratch folder), http.port, transport.port, parent.pid,
 * security=true for the secured node (see SecuredNode; the elastic user's password comes
 * from the environment), and tls.dir=<folder of PEM files> for a secured node over HTTPS. See LaunchOptions for when the node stops.
 */
public final class Launcher {
    public static void main(String[] args) throws Exception {
        // Elasticsearch's logging takes over System.out; the ready line goes to the real stdout.
        java.io.PrintStream stdout = System.out;
        LaunchOptions options = new LaunchOptions(args);
        options.exitWhenParentEnds();
        boolean security = options.flag("security");
        Settings.Builder settings = Settings.builder().loadFromMap(options.singleNodeSettings());
        List<Class<? extends Plugin>> plugins = new ArrayList<>();
        plugins.add(org.elasticsearch.transport.netty4.Netty4Plugin.class);
        plugins.add(RootInfoPlugin.class);
        String tlsDir = options.get("tls.dir", "");
        if (!tlsDir.isEmpty() && !security) throw new IllegalArgumentException("tls.dir needs security=true (HTTPS comes with x-pack security)");
        if (security) SecuredNode.configure(settings, plugins, tlsDir.isEmpty() ? null : java.nio.file.Path.of(tlsDir));

        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings.build(), Map.of(), options.configDir(), () -> "searchbook-real-node");
        LogConfigurator.configure(environment, true);

        Node node = new ClasspathPluginsNode(environment, plugins);
        LaunchOptions.run(node::start, node, stdout);
    }

    private Launcher() {}
}
