package searchbook.realnode;

import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.opensearch.common.settings.Settings;
import org.opensearch.plugins.Plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;

/**
 * OpenSearch's security plugin (its zip from Central, unpacked to target/classpath-security)
 * with HTTP Basic auth against its internal user database, over HTTPS. The node writes its
 * own security configuration (config/opensearch-security/*.yml) and, being told
 * plugins.security.allow_default_init_securityindex, loads it into its security index on first
 * start, as the distribution's demo set-up does, without securityadmin or an admin certificate.
 *
 * Two users: `admin` (the all_access role, password from SEARCHBOOK_ES_BOOTSTRAP_PASSWORD) and
 * `reader` (reads every index and the cluster, writes nothing; password from
 * SEARCHBOOK_OS_READER_PASSWORD). Passwords reach the node only as bcrypt hashes.
 */
final class SecuredNode {
    static final String ADMIN_PASSWORD_ENV = "SEARCHBOOK_ES_BOOTSTRAP_PASSWORD";
    static final String READER_PASSWORD_ENV = "SEARCHBOOK_OS_READER_PASSWORD";
    private static final String PLUGIN_CLASS = "org.opensearch.security.OpenSearchSecurityPlugin";

    /**
     * `tlsDir` holds ca.pem, node.pem and node-key.pem (PKCS#8), written by the starter. The
     * security plugin requires TLS on the transport layer whatever HTTP does; the same
     * certificate serves both (one node on loopback: no node ever connects to another).
     */
    static void configure(Settings.Builder settings, List<Class<? extends Plugin>> plugins, Path configDir, Path tlsDir)
        throws IOException, ClassNotFoundException {
        String adminPassword = requiredEnv(ADMIN_PASSWORD_ENV);
        String readerPassword = requiredEnv(READER_PASSWORD_ENV);
        Path certs = configDir.resolve("certs");
        Files.createDirectories(certs);
        for (String name : List.of("ca.pem", "node.pem", "node-key.pem")) {
            Files.copy(tlsDir.resolve(name), certs.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        for (String layer : List.of("transport", "http")) {
            String prefix = "plugins.security.ssl." + layer + ".";
            settings.put(prefix + "pemcert_filepath", "certs/node.pem")
                .put(prefix + "pemkey_filepath", "certs/node-key.pem")
                .put(prefix + "pemtrustedcas_filepath", "certs/ca.pem");
        }
        settings.put("plugins.security.ssl.http.enabled", true)
            .put("plugins.security.ssl.transport.enforce_hostname_verification", false)
            .put("plugins.security.allow_default_init_securityindex", true)
            .putList("plugins.security.nodes_dn", "CN=localhost")
            // No admin certificate is ever presented; the setting only has to name someone.
            .putList("plugins.security.authcz.admin_dn", "CN=searchbook-admin")
            // The security REST API (internal users, roles) for admin, as the demo set-up allows.
            .putList("plugins.security.restapi.roles_enabled", "all_access")
            // No audit log: it would want an index or a sink of its own.
            .put("plugins.security.audit.type", "noop");
        writeSecurityConfig(configDir.resolve("opensearch-security"), adminPassword, readerPassword);
        ownerOnly(configDir);
        plugins.add(Class.forName(PLUGIN_CLASS).asSubclass(Plugin.class));
    }

    private static void writeSecurityConfig(Path dir, String adminPassword, String readerPassword) throws IOException {
        Files.createDirectories(dir);
        write(dir, "config.yml", "config", String.join("\n",
            "config:",
            "  dynamic:",
            "    http:",
            "      anonymous_auth_enabled: false",
            "    authc:",
            "      basic_internal_auth_domain:",
            "        description: \"HTTP Basic against the internal user database\"",
            "        http_enabled: true",
            "        transport_enabled: true",
            "        order: 0",
            "        http_authenticator:",
            "          type: basic",
            "          challenge: true",
            "        authentication_backend:",
            "          type: intern",
            ""));
        write(dir, "internal_users.yml", "internalusers", String.join("\n",
            "admin:",
            "  hash: \"" + bcrypt(adminPassword) + "\"",
            "  reserved: true",
            "  backend_roles: [\"admin\"]",
            "  description: \"all_access\"",
            "reader:",
            "  hash: \"" + bcrypt(readerPassword) + "\"",
            "  reserved: false",
            "  description: \"reads every index, writes none\"",
            ""));
        write(dir, "roles.yml", "roles", String.join("\n",
            "searchbook_reader:",
            "  reserved: false",
            "  cluster_permissions: [\"cluster_composite_ops_ro\", \"cluster_monitor\"]",
            "  index_permissions:",
            "    - index_patterns: [\"*\"]",
            "      allowed_actions: [\"read\", \"indices_monitor\", \"indices:admin/mappings/get\"]",
            ""));
        write(dir, "roles_mapping.yml", "rolesmapping", String.join("\n",
            "all_access:",
            "  reserved: false",
            "  backend_roles: [\"admin\"]",
            "searchbook_reader:",
            "  reserved: false",
            "  users: [\"reader\"]",
            ""));
        write(dir, "action_groups.yml", "actiongroups", "");
        write(dir, "tenants.yml", "tenants", "");
        write(dir, "nodes_dn.yml", "nodesdn", "");
        write(dir, "allowlist.yml", "allowlist", "config:\n  enabled: false\n");
        write(dir, "audit.yml", "audit", "config:\n  enabled: false\n");
    }

    private static void write(Path dir, String file, String type, String body) throws IOException {
        Files.writeString(dir.resolve(file), "_meta:\n  type: \"" + type + "\"\n  config_version: 2\n" + body);
    }

    /** The plugin warns at start about every config file others may read (it holds keys and hashes). */
    private static void ownerOnly(Path configDir) throws IOException {
        try (java.util.stream.Stream<Path> paths = Files.walk(configDir)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwx------" : "rw-------"));
            }
        }
    }

    private static String bcrypt(String password) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return OpenBSDBCrypt.generate("2y", password.toCharArray(), salt, 10);
    }

    private static String requiredEnv(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) throw new IllegalArgumentException("security=true needs " + name);
        return value;
    }

    private SecuredNode() {}
}
