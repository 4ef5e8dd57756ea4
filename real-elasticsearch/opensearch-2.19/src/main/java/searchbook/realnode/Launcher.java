package searchbook.realnode;

import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.Plugin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Starts one real OpenSearch 2.x node in this JVM from Maven Central's jars, with OpenSearch's
 * modules passed as classpath plugins (its Node takes them directly, as Elasticsearch 7.x's
 * does). Arguments are key=value: home (scratch folder), http.port, transport.port,
 * parent.pid; security=true with tls.dir=<folder of PEM files> for the node secured by
 * OpenSearch's security plugin (see SecuredNode); see LaunchOptions. Every answer of the node
 * is OpenSearch's own.
 */
public final class Launcher {
    static final class ClasspathPluginsNode extends Node {
        ClasspathPluginsNode(Environment environment, Collection<Class<? extends Plugin>> plugins) {
            super(environment, plugins, false);
        }
    }

    public static void main(String[] args) throws Exception {
        // OpenSearch's logging takes over System.out; the ready line goes to the real stdout.
        java.io.PrintStream stdout = System.out;
        LaunchOptions options = new LaunchOptions(args);
        options.exitWhenParentEnds();
        Settings.Builder settings = Settings.builder().loadFromMap(options.singleNodeSettings());
        // The modules of OpenSearch's distribution that are on Central (as codelibs' runner loads them).
        List<Class<? extends Plugin>> plugins = new ArrayList<>(List.of(
            org.opensearch.transport.Netty4Plugin.class,
            org.opensearch.analysis.common.CommonAnalysisPlugin.class,
            org.opensearch.painless.PainlessPlugin.class,
            org.opensearch.index.mapper.MapperExtrasPlugin.class,
            org.opensearch.join.ParentJoinPlugin.class,
            org.opensearch.search.aggregations.matrix.MatrixAggregationPlugin.class,
            org.opensearch.index.reindex.ReindexPlugin.class,
            org.opensearch.percolator.PercolatorPlugin.class,
            org.opensearch.script.mustache.MustachePlugin.class,
            org.opensearch.script.expression.ExpressionPlugin.class,
            org.opensearch.index.rankeval.RankEvalPlugin.class,
            org.opensearch.ingest.common.IngestCommonPlugin.class,
            org.opensearch.ingest.useragent.IngestUserAgentPlugin.class,
            org.opensearch.geo.GeoModulePlugin.class,
            org.opensearch.plugin.repository.url.URLRepositoryPlugin.class
        ));
        String tlsDir = options.get("tls.dir", "");
        if (options.flag("security")) {
            if (tlsDir.isEmpty()) throw new IllegalArgumentException("security=true needs tls.dir (the security plugin requires TLS)");
            SecuredNode.configure(settings, plugins, options.configDir(), Path.of(tlsDir));
        } else if (!tlsDir.isEmpty()) {
            throw new IllegalArgumentException("tls.dir needs security=true (HTTPS comes with the security plugin)");
        }

        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings.build(), Map.of(), options.configDir(), () -> "searchbook-real-node");
        LogConfigurator.configure(environment);
        Node node = new ClasspathPluginsNode(environment, plugins);
        LaunchOptions.run(node::start, node, stdout);
    }

    private Launcher() {}
}
