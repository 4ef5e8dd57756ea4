package searchbook.realnode;

import org.elasticsearch.Build;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.RestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.xcontent.XContentBuilder;

import java.util.Collection;
import java.util.List;

/**
 * THE LAUNCHER'S OWN ANSWER, not Elasticsearch's: `GET /` and `HEAD /` are served by the
 * `rest-root` module, which Elastic does not publish to Maven Central, so without this a real
 * 8.x node started from Central's jars answers `GET /` with 400. This plugin writes the shape
 * rest-root writes, with version, build hash, build date and Lucene version read from the
 * server jar that is running. Every other answer of the node is Elasticsearch's own.
 * The 8.19 class, for 9.5's plugin API (REST handlers get their services in one record).
 */
public class RootInfoPlugin extends Plugin implements ActionPlugin {
    private volatile ClusterService clusterService;

    @Override
    public Collection<?> createComponents(PluginServices services) {
        clusterService = services.clusterService();
        return List.of();
    }

    @Override
    public Collection<RestHandler> getRestHandlers(
        RestHandlersServices services,
        java.util.function.Supplier<org.elasticsearch.cluster.node.DiscoveryNodes> nodesInCluster,
        java.util.function.Predicate<org.elasticsearch.features.NodeFeature> clusterSupportsFeature
    ) {
        return List.of(new RestHandler() {
            @Override
            public List<Route> routes() {
                return List.of(new Route(RestRequest.Method.GET, "/"), new Route(RestRequest.Method.HEAD, "/"));
            }

            @Override
            public void handleRequest(RestRequest request, org.elasticsearch.rest.RestChannel channel, org.elasticsearch.client.internal.node.NodeClient client)
                throws Exception {
                if (request.method() == RestRequest.Method.HEAD) {
                    channel.sendResponse(new RestResponse(RestStatus.OK, "application/json", org.elasticsearch.common.bytes.BytesArray.EMPTY));
                    return;
                }
                channel.sendResponse(new RestResponse(RestStatus.OK, rootInfo(channel.newBuilder())));
            }
        });
    }

    private XContentBuilder rootInfo(XContentBuilder builder) throws java.io.IOException {
        Build build = Build.current();
        String buildType = build.type().displayName();
        builder.startObject();
        builder.field("name", clusterService.getNodeName());
        builder.field("cluster_name", clusterService.getClusterName().value());
        builder.field("cluster_uuid", clusterService.state().metadata().clusterUUID());
        builder.startObject("version");
        builder.field("number", build.qualifiedVersion());
        builder.field("build_flavor", build.flavor());
        // A Central jar has no distribution type; the node stands in for the tar distribution.
        builder.field("build_type", "unknown".equals(buildType) ? "tar" : buildType);
        builder.field("build_hash", build.hash());
        builder.field("build_date", build.date());
        builder.field("build_snapshot", build.isSnapshot());
        builder.field("lucene_version", org.apache.lucene.util.Version.LATEST.toString());
        builder.field("minimum_wire_compatibility_version", build.minWireCompatVersion());
        builder.field("minimum_index_compatibility_version", build.minIndexCompatVersion());
        builder.endObject();
        builder.field("tagline", "You Know, for Search");
        builder.endObject();
        return builder;
    }
}
