package searchbook.realnode;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.Plugin;

import java.util.List;

/** Security on (x-pack-core and x-pack-security from Central). */
final class SecuredNode {
    static void configure(Settings.Builder settings, LaunchOptions options, List<Class<? extends Plugin>> plugins) {
        throw new UnsupportedOperationException("not yet");
    }

    static void prepare(Environment environment, LaunchOptions options) {}

    private SecuredNode() {}
}
