package org.elasticsearch.node;

import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.ClasspathPluginsService;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.plugins.PluginsLoader;
import org.elasticsearch.plugins.PluginsService;

import java.util.Collection;

/**
 * A node whose plugins are classes on the classpath. In Elasticsearch's package because the
 * construction hook that picks the plugins service is package-private.
 */
public class ClasspathPluginsNode extends Node {
    public ClasspathPluginsNode(Environment environment, Collection<Class<? extends Plugin>> pluginClasses) {
        super(NodeConstruction.prepareConstruction(environment, ClasspathPluginsService.emptyLoader(), new NodeServiceProvider() {
            @Override
            PluginsService newPluginService(Environment env, PluginsLoader loader) {
                return new ClasspathPluginsService(env, loader, pluginClasses);
            }
        }, false));
    }
}
