package dev.sluice.container.sandbox;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Networks no dispatch's container is ever given, whatever an operator
 * allows (ADR 0071): those that put it in a network namespace it shares with
 * the engine's host or with another container, and the user-mode networks
 * whose connections leave from the host's own namespace. On any of them an
 * agent reaches what only the host (or that container) should: the worker's
 * management port, the engine's API on a TCP socket, cloud metadata, another
 * dispatch's servers on its loopback.
 *
 * <p>Judged by spelling, as the engine reads a network mode: {@code host} and
 * {@code container:<name|id>} are Docker's; {@code ns:<path>},
 * {@code slirp4netns[:options]} and {@code pasta[:options]} are Podman's, and
 * are refused for a worker pointed at Podman's compatible socket (the worker
 * supports Docker's engine). A network of the engine's own, named or by id,
 * gets a namespace of the container's own: Docker Engine 20.10 given the
 * {@code host} network's id puts the container in a namespace with loopback
 * alone, not in the host's.
 */
public final class NetworkModes {

    private NetworkModes() {}

    /** What joining {@code network} would share, or empty for a network a container gets a namespace of its own on. */
    public static Optional<String> shared(String network) {
        String mode = network == null ? "" : network.strip().toLowerCase(Locale.ROOT);
        if (mode.equals("host")) {
            return Optional.of("the engine host's own network namespace: every address and port of the host, its"
                    + " loopback included");
        }
        if (mode.startsWith("container:")) {
            return Optional.of("another container's network namespace: whatever that container (another dispatch,"
                    + " or anything else on the engine) serves, its loopback included");
        }
        if (mode.startsWith("ns:")) {
            return Optional.of("a network namespace named by its path (Podman), such as the host's /proc/1/ns/net");
        }
        if (userMode(mode, "slirp4netns") || userMode(mode, "pasta")) {
            return Optional.of("a user-mode network (Podman) whose connections leave from the engine host's own"
                    + " network namespace, and can reach the host's loopback by its options");
        }
        return Optional.empty();
    }

    /**
     * The refusal of a worker whose {@code setting} lists a network that
     * {@link #shared shares a namespace}, naming each; empty when none does.
     */
    public static Optional<String> refusal(String setting, List<String> networks) {
        StringBuilder named = new StringBuilder();
        for (String network : networks) {
            shared(network)
                    .ifPresent(why -> named.append(named.isEmpty() ? "" : "; ")
                            .append('"')
                            .append(network.strip())
                            .append("\" is ")
                            .append(why));
        }
        if (named.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("refusing to start: " + setting + " lists a network a dispatch would share with the"
                + " engine's host or another container: " + named + ". Remove it; a dispatch that needs a network"
                + " gets one of the engine's own (docker network create), in a namespace of its own (ADR 0071)");
    }

    private static boolean userMode(String mode, String name) {
        return mode.equals(name) || mode.startsWith(name + ":");
    }
}
