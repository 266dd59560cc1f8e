package dev.sluice.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Registry credentials by host: those configured under
 * {@code sluice.images.registries.<host>} first, then the {@code auths} of a
 * Docker {@code config.json} ({@code sluice.images.docker-config}, e.g. a
 * mounted Kubernetes secret), each entry as a base64 {@code auth}
 * ({@code user:password}) or a {@code username} and {@code password}. The
 * file is read again at each look-up, so a rotated secret takes effect at the
 * next pull. Nothing here logs a password; a file that cannot be read is said
 * in a log line naming the file alone.
 */
final class RegistryCredentials {

    private static final Logger LOG = Logger.getLogger(RegistryCredentials.class);

    /** The names Docker Hub goes by in config files, all meaning {@link ImageName#HUB}. */
    private static final Map<String, String> HUB_ALIASES = Map.of(
            "index.docker.io", ImageName.HUB,
            "registry-1.docker.io", ImageName.HUB,
            "registry.hub.docker.com", ImageName.HUB);

    private final Map<String, RegistryCredential> configured;
    private final Optional<Path> dockerConfig;
    private final ObjectMapper json = new ObjectMapper();

    public RegistryCredentials(Map<String, RegistryCredential> configured, Optional<Path> dockerConfig) {
        Map<String, RegistryCredential> byHost = new HashMap<>();
        configured.forEach((host, credential) -> byHost.put(host(host), credential));
        this.configured = Map.copyOf(byHost);
        this.dockerConfig = dockerConfig;
    }

    /** None at all: pulls go without credentials. */
    public static RegistryCredentials none() {
        return new RegistryCredentials(Map.of(), Optional.empty());
    }

    /** The credential for a registry host ({@code registry.example:5000}, {@code docker.io}), if any. */
    public Optional<RegistryCredential> forRegistry(String registry) {
        String host = host(registry);
        RegistryCredential credential = configured.get(host);
        if (credential != null) {
            return Optional.of(credential);
        }
        return dockerConfig.flatMap(path -> fromFile(path, host));
    }

    private Optional<RegistryCredential> fromFile(Path path, String host) {
        JsonNode auths;
        try {
            auths = json.readTree(Files.readAllBytes(path)).path("auths");
        } catch (IOException | RuntimeException e) {
            // Only the file's name and the kind of failure: a parser's message may quote the file.
            LOG.warnf(
                    "sluice.images.docker-config %s could not be read (%s)",
                    path, e.getClass().getSimpleName());
            return Optional.empty();
        }
        return parse(auths, host);
    }

    /** The entry of {@code host} among a config file's {@code auths}, keys normalized as the Docker CLI writes them. */
    static Optional<RegistryCredential> parse(JsonNode auths, String host) {
        var fields = auths.fields();
        while (fields.hasNext()) {
            var entry = fields.next();
            if (host(entry.getKey()).equals(host)) {
                return credential(entry.getValue());
            }
        }
        return Optional.empty();
    }

    private static Optional<RegistryCredential> credential(JsonNode entry) {
        String auth = entry.path("auth").asText("");
        if (!auth.isEmpty()) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(auth.strip()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            int colon = decoded.indexOf(':');
            return colon <= 0
                    ? Optional.empty()
                    : Optional.of(new RegistryCredential(decoded.substring(0, colon), decoded.substring(colon + 1)));
        }
        String username = entry.path("username").asText("");
        String password = entry.path("password").asText("");
        return username.isEmpty() || password.isEmpty()
                ? Optional.empty()
                : Optional.of(new RegistryCredential(username, password));
    }

    /**
     * A registry as a bare host: {@code https://index.docker.io/v1/} and
     * {@code registry.example/v2/} are written in config files for
     * {@code docker.io} and {@code registry.example}.
     */
    static String host(String key) {
        String host = key.strip().toLowerCase(Locale.ROOT);
        int scheme = host.indexOf("://");
        if (scheme >= 0) {
            host = host.substring(scheme + 3);
        }
        int slash = host.indexOf('/');
        if (slash >= 0) {
            host = host.substring(0, slash);
        }
        return HUB_ALIASES.getOrDefault(host, host);
    }

    @Override
    public String toString() {
        return "RegistryCredentials[configured for " + configured.keySet() + ", file " + dockerConfig + "]";
    }
}
