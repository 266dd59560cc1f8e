package dev.sluice.container.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.github.dockerjava.api.model.Version;
import com.github.dockerjava.api.model.VersionComponent;

/**
 * Which engine answers Docker's API, as its {@code /version} names itself
 * (ADR 0078): Docker's ({@code Components[0].Name} {@code Engine}) or Podman's
 * compatible service ({@code Podman Engine}). What the worker does
 * differently on each is chosen from this, once, as the network of
 * {@code network: none} is chosen from Docker's version (ADR 0047); what
 * Podman cannot do that the configuration asks for is refused
 * ({@link #refusal}).
 *
 * @param name       the engine's own component, listed first: {@code Engine}, {@code Podman Engine};
 *                   empty when it lists none
 * @param version    the engine's version, as {@code /version} says it
 * @param apiVersion the version of Docker's API it serves
 */
public record EngineIdentity(String name, String version, String apiVersion) {

    /** What {@code /version} calls Docker's own engine. */
    static final String DOCKER = "Engine";

    /** What {@code /version} calls Podman's, behind its Docker-compatible API. */
    static final String PODMAN = "Podman Engine";

    /** The log driver Podman's compatible API takes that the worker reads back (its own k8s-file records). */
    static final String PODMAN_LOG_DRIVER = "json-file";

    public EngineIdentity {
        name = name == null ? "" : name;
        version = version == null ? "" : version;
        apiVersion = apiVersion == null ? "" : apiVersion;
    }

    /** From an answer to {@code /version}: the engine lists itself first (Docker and Podman alike), then what it runs on. */
    public static EngineIdentity of(Version answer) {
        List<VersionComponent> components = answer.getComponents();
        VersionComponent first = components == null || components.isEmpty() ? null : components.get(0);
        return new EngineIdentity(first == null ? "" : first.getName(), answer.getVersion(), answer.getApiVersion());
    }

    /** Podman's compatible API, whose differences ADR 0078 lists. */
    public boolean podman() {
        return name.equals(PODMAN);
    }

    /** One line for the log: {@code Docker engine 20.10.24, API 1.41} or {@code Podman Engine 4.3.1, API 1.41}. */
    public String describe() {
        return (podman() ? "Podman Engine " : "Docker engine ") + version + ", API " + apiVersion;
    }

    /**
     * Why a worker configured with these container settings must not run
     * against this engine, naming every setting at fault and what to do; empty
     * when it may.
     * Only Podman refuses anything (Docker's engine is the one the worker was
     * built for):
     * <ul>
     *   <li>a runtime per dispatch ({@code sluice.container.runtimes}): Podman 4.3's
     *       compatible API takes {@code HostConfig.Runtime} and ignores it, so a
     *       dispatch that asks for gVisor would run under Podman's default runtime
     *       on the host's kernel, saying it ran under runsc;
     *   <li>a log driver other than {@code json-file}: Podman refuses {@code local}
     *       at every create, and the worker reads logs back through the one it
     *       knows;
     *   <li>{@code sluice.container.none-network=bare}: the bare namespace and the
     *       worker's /etc/hosts volume steer clear of a fault of Docker's network
     *       controller (ADR 0047) that Podman does not have, and were never
     *       checked on Podman; {@code auto} and {@code docker} give its own
     *       {@code none} network.
     * </ul>
     */
    public Optional<String> refusal(List<String> runtimes, String logDriver, boolean bareNoneNetwork) {
        if (!podman()) {
            return Optional.empty();
        }
        List<String> faults = new ArrayList<>();
        if (!runtimes.isEmpty()) {
            faults.add("sluice.container.runtimes lists " + String.join(",", runtimes)
                    + ", but Podman's Docker-compatible API ignores a container's runtime: a dispatch that names"
                    + " one would run under Podman's default runtime, on the host's kernel. Leave the setting"
                    + " unset, or run the worker against Docker's engine with the runtime registered");
        }
        if (!logDriver.equals(PODMAN_LOG_DRIVER)) {
            faults.add("sluice.container.log-driver is " + logDriver + ", which Podman does not offer"
                    + " through its Docker-compatible API; use " + PODMAN_LOG_DRIVER);
        }
        if (bareNoneNetwork) {
            faults.add("sluice.container.none-network is bare, a remedy for a fault of Docker's network"
                    + " controller (ADR 0047) that Podman does not have; use auto or docker, which give Podman's"
                    + " own none network");
        }
        if (faults.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("refusing to start: the engine is " + describe() + " (ADR 0078): "
                + String.join("; ", faults) + ". See docs/operations.md, \"Engines\"");
    }
}
