package org.elasticsearch.xpack.security;

import org.elasticsearch.action.ActionRequest;
import org.elasticsearch.action.ActionResponse;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.rest.RestHandler;

import java.util.List;

/**
 * x-pack-security minus its SAML actions and REST handlers, whose classes need OpenSAML 4
 * (not on Maven Central). Everything else (realms, API keys, 401s) is Elastic's own code.
 * In x-pack's package because only plugins there may install the REST interceptor that
 * authenticates requests.
 */
public class SecurityWithoutSaml extends Security {
    public SecurityWithoutSaml(Settings settings) {
        super(settings);
    }

    @Override
    public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
        return super.getActions().stream().filter(handler -> !isSaml(handler.getTransportAction())).toList();
    }

    @Override
    public List<RestHandler> getRestHandlers(
        Settings settings,
        org.elasticsearch.common.io.stream.NamedWriteableRegistry namedWriteableRegistry,
        org.elasticsearch.rest.RestController restController,
        org.elasticsearch.common.settings.ClusterSettings clusterSettings,
        org.elasticsearch.common.settings.IndexScopedSettings indexScopedSettings,
        org.elasticsearch.common.settings.SettingsFilter settingsFilter,
        org.elasticsearch.cluster.metadata.IndexNameExpressionResolver indexNameExpressionResolver,
        java.util.function.Supplier<org.elasticsearch.cluster.node.DiscoveryNodes> nodesInCluster,
        java.util.function.Predicate<org.elasticsearch.features.NodeFeature> clusterSupportsFeature
    ) {
        return super.getRestHandlers(
            settings,
            namedWriteableRegistry,
            restController,
            clusterSettings,
            indexScopedSettings,
            settingsFilter,
            indexNameExpressionResolver,
            nodesInCluster,
            clusterSupportsFeature
        ).stream().filter(handler -> !isSaml(handler.getClass())).toList();
    }

    private static boolean isSaml(Class<?> type) {
        return type.getName().contains(".saml.");
    }
}
