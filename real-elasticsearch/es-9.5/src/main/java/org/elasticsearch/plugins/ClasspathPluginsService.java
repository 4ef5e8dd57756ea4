package org.elasticsearch.plugins;

import org.elasticsearch.action.admin.cluster.node.info.PluginsAndModules;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Serves plugin classes found on the classpath instead of plugin folders on disk: Maven Central
 * has the module jars but no distribution layout. It lives in Elasticsearch's package because
 * the plugin records it builds are package-private. The 8.19 class, with 9.5's plugin
 * descriptor (one more argument: where the plugin may be deployed).
 */
public class ClasspathPluginsService extends PluginsService {
    private final List<LoadedPlugin> classpathPlugins;

    public ClasspathPluginsService(Environment environment, PluginsLoader emptyLoader, Collection<Class<? extends Plugin>> pluginClasses) {
        super(environment.settings(), environment.configDir(), emptyLoader);
        Settings settings = environment.settings();
        List<LoadedPlugin> loaded = new ArrayList<>();
        for (Class<? extends Plugin> pluginClass : pluginClasses) {
            Plugin plugin = loadPlugin(pluginClass, settings, environment.configDir());
            PluginDescriptor descriptor = new PluginDescriptor(
                pluginClass.getName(),
                "classpath plugin",
                "NA",
                org.elasticsearch.Build.current().version(),
                Integer.toString(Runtime.version().feature()),
                pluginClass.getName(),
                null,
                List.of(),
                false,
                false,
                false,
                false,
                PluginDescriptor.DeploymentTarget.ALL
            );
            loaded.add(new LoadedPlugin(descriptor, plugin, pluginClass.getClassLoader()));
        }
        this.classpathPlugins = List.copyOf(loaded);
        loadExtensions(classpathPlugins);
    }

    @Override
    protected final List<LoadedPlugin> plugins() {
        return classpathPlugins;
    }

    @Override
    public PluginsAndModules info() {
        // Listed as modules, as a distribution lists netty4 and x-pack: `_cat/plugins` stays empty.
        return new PluginsAndModules(List.of(), classpathPlugins.stream().map(LoadedPlugin::descriptor).toList());
    }

    /**
     * Every plugin shares one class loader here, so each service provider is created once,
     * handed the plugin its constructor asks for (as a distribution does per plugin layer).
     */
    @Override
    public <T> List<? extends T> loadServiceProviders(Class<T> service) {
        List<T> providers = new ArrayList<>();
        for (ServiceLoader.Provider<T> provider : ServiceLoader.load(service, getClass().getClassLoader()).stream().toList()) {
            providers.add(create(provider));
        }
        return providers;
    }

    private <T> T create(ServiceLoader.Provider<T> provider) {
        for (Constructor<?> constructor : provider.type().getConstructors()) {
            if (constructor.getParameterCount() != 1) continue;
            for (LoadedPlugin plugin : classpathPlugins) {
                if (!constructor.getParameterTypes()[0].isInstance(plugin.instance())) continue;
                try {
                    return provider.type().cast(constructor.newInstance(plugin.instance()));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot create " + provider.type().getName(), e);
                }
            }
        }
        return provider.get();
    }

    /** A loader with no bundles: every plugin comes from the classpath. */
    public static PluginsLoader emptyLoader() {
        return PluginsLoader.createPluginsLoader(java.util.Set.of(), java.util.Set.of(), java.util.Map.of(), false);
    }
}
