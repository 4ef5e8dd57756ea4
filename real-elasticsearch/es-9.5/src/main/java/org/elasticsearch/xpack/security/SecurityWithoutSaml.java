package org.elasticsearch.xpack.security;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.rest.RestHandler;

import java.util.List;

/**
 * x-pack-security minus its SAML actions and REST handlers, whose classes need OpenSAML 4
 * (not on Maven Central). Everything else (realms, API keys, 401s) is Elastic's own code.
 * In x-pack's package because only plugins there may install the REST interceptor that
 * authenticates requests. The 8.19 class, for 9.5's plugin API (action handlers are no longer
 * generic; REST handlers get their services in one record).
 */
public class SecurityWithoutSaml extends Security {
    public SecurityWithoutSaml(Settings settings) {
        super(settings);
    }

    @Override
    public List<ActionHandler> getActions() {
        return super.getActions().stream().filter(handler -> !isSaml(handler.getTransportAction())).toList();
    }

    @Override
    public List<RestHandler> getRestHandlers(
        RestHandlersServices services,
        java.util.function.Supplier<org.elasticsearch.cluster.node.DiscoveryNodes> nodesInCluster,
        java.util.function.Predicate<org.elasticsearch.features.NodeFeature> clusterSupportsFeature
    ) {
        return super.getRestHandlers(services, nodesInCluster, clusterSupportsFeature).stream().filter(handler -> !isSaml(handler.getClass())).toList();
    }

    private static boolean isSaml(Class<?> type) {
        return type.getName().contains(".saml.");
    }
}
