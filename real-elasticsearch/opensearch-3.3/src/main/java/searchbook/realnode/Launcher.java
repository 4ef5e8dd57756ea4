package searchbook.realnode;

import org.opensearch.Version;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.PluginInfo;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Starts one real OpenSearch 3.x node in this JVM from Maven Central's jars, with OpenSearch's
 * modules passed as classpath plugins. Arguments are key=value: home (scratch folder),
 * http.port, transport.port, parent.pid; see LaunchOptions. Every answer of the node is
 * OpenSearch's own.
 *
 * What differs from the 2.19 launcher: 3.x's Node takes the classpath plugins as PluginInfo
 * (not classes), its modules' plugin classes are named *ModulePlugin, and it runs on Java 21+
 * only (no security manager). The security plugin is not wired here: the secured OpenSearch
 * node of the tests is the 2.19 one.
 */
public final class Launcher {
    static final class ClasspathPluginsNode extends Node {
        ClasspathPluginsNode(Environment environment, Collection<PluginInfo> plugins) {
            super(environment, plugins, false);
        }
    }

    /** What 3.x's PluginsService needs of a plugin found on the classpath (as codelibs' runner builds it). */
    private static PluginInfo classpathPlugin(Class<? extends Plugin> plugin) {
        return new PluginInfo(
            plugin.getName(),
            "classpath plugin",
            "NA",
            Version.CURRENT,
            Integer.toString(Runtime.version().feature()),
            plugin.getName(),
            List.of(),
            false
        );
    }

    public static void main(String[] args) throws Exception {
        // OpenSearch's logging takes over System.out; the ready line goes to the real stdout.
        java.io.PrintStream stdout = System.out;
        LaunchOptions options = new LaunchOptions(args);
        options.exitWhenParentEnds();
        if (options.flag("security") || !options.get("tls.dir", "").isEmpty()) {
            throw new IllegalArgumentException("the OpenSearch 3.x launcher has no security plugin (the secured node is opensearch-2.19-security)");
        }
        Settings settings = Settings.builder().loadFromMap(options.singleNodeSettings()).build();
        // The modules of OpenSearch's distribution that are on Central (as codelibs' runner loads them).
        List<PluginInfo> plugins = List.<Class<? extends Plugin>>of(
            org.opensearch.transport.Netty4ModulePlugin.class,
            org.opensearch.analysis.common.CommonAnalysisModulePlugin.class,
            org.opensearch.painless.PainlessModulePlugin.class,
            org.opensearch.index.mapper.MapperExtrasModulePlugin.class,
            org.opensearch.join.ParentJoinModulePlugin.class,
            org.opensearch.search.aggregations.matrix.MatrixAggregationModulePlugin.class,
            org.opensearch.index.reindex.ReindexModulePlugin.class,
            org.opensearch.percolator.PercolatorModulePlugin.class,
            org.opensearch.script.mustache.MustacheModulePlugin.class,
            org.opensearch.script.expression.ExpressionModulePlugin.class,
            org.opensearch.index.rankeval.RankEvalModulePlugin.class,
            org.opensearch.ingest.common.IngestCommonModulePlugin.class,
            org.opensearch.ingest.useragent.IngestUserAgentModulePlugin.class,
            org.opensearch.geo.GeoModulePlugin.class,
            org.opensearch.plugin.repository.url.URLRepositoryModulePlugin.class
        ).stream().map(Launcher::classpathPlugin).toList();

        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), options.configDir(), () -> "searchbook-real-node");
        LogConfigurator.configure(environment);
        Node node = new ClasspathPluginsNode(environment, plugins);
        LaunchOptions.run(node::start, node, stdout);
    }

    private Launcher() {}
}
