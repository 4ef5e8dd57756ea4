package searchbook.realnode;

import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.InternalSettingsPreparer;
import org.elasticsearch.node.Node;
import org.elasticsearch.plugins.Plugin;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Starts one real Elasticsearch 7.17 node in this JVM from Maven Central's jars, with the
 * modules Central publishes for 7.17 passed as classpath plugins (7.x's Node takes them
 * directly). Arguments are key=value: home (scratch folder), http.port, transport.port,
 * parent.pid; see LaunchOptions.
 */
public final class Launcher {
    static final class ClasspathPluginsNode extends Node {
        ClasspathPluginsNode(Environment environment, Collection<Class<? extends Plugin>> plugins) {
            super(environment, plugins, false);
        }
    }

    public static void main(String[] args) throws Exception {
        // Elasticsearch's logging takes over System.out; the ready line goes to the real stdout.
        java.io.PrintStream stdout = System.out;
        LaunchOptions options = new LaunchOptions(args);
        options.exitWhenParentEnds();
        Settings settings = Settings.builder().loadFromMap(options.singleNodeSettings())
            // As a 7.17 distribution without security configured, minus the warning header
            // that x-pack-security (absent here) would add to every answer.
            .put("xpack.security.enabled", false)
            .put("xpack.ml.enabled", false)
            .build();
        List<Class<? extends Plugin>> plugins = List.of(
            org.elasticsearch.transport.Netty4Plugin.class,
            org.elasticsearch.index.mapper.MapperExtrasPlugin.class,
            org.elasticsearch.join.ParentJoinPlugin.class,
            org.elasticsearch.search.aggregations.matrix.MatrixAggregationPlugin.class,
            org.elasticsearch.reindex.ReindexPlugin.class,
            org.elasticsearch.percolator.PercolatorPlugin.class,
            org.elasticsearch.script.mustache.MustachePlugin.class,
            org.elasticsearch.index.rankeval.RankEvalPlugin.class,
            org.elasticsearch.xpack.core.XPackPlugin.class
        );

        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), options.configDir(), () -> "searchbook-real-node");
        LogConfigurator.configure(environment);
        Node node = new ClasspathPluginsNode(environment, plugins);
        LaunchOptions.run(node::start, node, stdout);
    }

    private Launcher() {}
}
