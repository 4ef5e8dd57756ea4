package searchbook.realnode;

import org.elasticsearch.common.io.stream.StreamOutput;
import org.elasticsearch.common.settings.SecureSettings;
import org.elasticsearch.common.settings.SecureString;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.plugins.Plugin;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Security on, from x-pack-core and x-pack-security on Central, over plain HTTP or, given PEM
 * files, over HTTPS (xpack.security.http.ssl.*). The SAML realm is left out (OpenSAML 4 is not
 * on Central); the analysis parts the .security index asks for come from SecurityIndexAnalysis.
 */
final class SecuredNode {
    /** The elastic user's password, read from the environment so it never shows in `ps`. */
    static final String PASSWORD_ENV = "SEARCHBOOK_ES_BOOTSTRAP_PASSWORD";

    /**
     * `tlsDir` (or null for plain HTTP) holds ca.pem, node.pem and node-key.pem, written by the
     * starter; the transport layer stays plain (one node, loopback only).
     */
    static void configure(Settings.Builder settings, List<Class<? extends Plugin>> plugins, Path tlsDir) {
        String password = System.getenv(PASSWORD_ENV);
        if (password == null || password.isEmpty()) throw new IllegalArgumentException("security=true needs " + PASSWORD_ENV);
        settings.put("xpack.security.enabled", true)
            .put("xpack.security.http.ssl.enabled", tlsDir != null)
            .put("xpack.security.transport.ssl.enabled", false)
            .put("xpack.license.self_generated.type", "basic")
            .put("xpack.ml.enabled", false)
            .setSecureSettings(new BootstrapPassword(password));
        if (tlsDir != null) {
            settings.put("xpack.security.http.ssl.certificate", tlsDir.resolve("node.pem").toString())
                .put("xpack.security.http.ssl.key", tlsDir.resolve("node-key.pem").toString())
                .put("xpack.security.http.ssl.certificate_authorities", tlsDir.resolve("ca.pem").toString());
        }
        plugins.add(org.elasticsearch.xpack.core.XPackPlugin.class);
        plugins.add(org.elasticsearch.xpack.security.SecurityWithoutSaml.class);
        plugins.add(SecurityIndexAnalysis.class);
    }

    /** The keystore's `bootstrap.password` entry, which sets the elastic user's first password. */
    private static final class BootstrapPassword implements SecureSettings {
        private static final String NAME = "bootstrap.password";
        private final String password;

        BootstrapPassword(String password) {
            this.password = password;
        }

        @Override
        public boolean isLoaded() {
            return true;
        }

        @Override
        public Set<String> getSettingNames() {
            return Set.of(NAME);
        }

        @Override
        public SecureString getString(String setting) {
            return NAME.equals(setting) ? new SecureString(password.toCharArray()) : null;
        }

        @Override
        public InputStream getFile(String setting) {
            return null;
        }

        @Override
        public byte[] getSHA256Digest(String setting) {
            throw new UnsupportedOperationException("bootstrap.password is a string setting");
        }

        @Override
        public void close() {}

        @Override
        public void writeTo(StreamOutput out) {
            throw new UnsupportedOperationException("the bootstrap password is never sent anywhere");
        }
    }

    private SecuredNode() {}
}
