package dev.sluice.container.sandbox;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How dispatch containers are run. Secure by default (docs/api.md, section 3.4); each
 * protection can be loosened by a deployment that needs it.
 */
@ConfigMapping(prefix = "sluice.container")
public interface ContainerConfig {

    /** Mount the image's root filesystem read-only; the work area and /tmp are tmpfs. */
    @WithDefault("true")
    boolean readOnlyRoot();

    /** Drop all Linux capabilities. */
    @WithDefault("true")
    boolean dropCapabilities();

    /** Forbid gaining privileges through setuid binaries. */
    @WithDefault("true")
    boolean noNewPrivileges();

    /**
     * Run the engine's init process as PID 1, so signals reach the agent and
     * zombies are reaped. Only for containers without the witness: the
     * witness is PID 1 itself, doing both, and no process may run before it
     * (ADR 0070).
     */
    @WithDefault("true")
    boolean init();

    /** Writable work area (tmpfs) and default working directory. */
    @WithDefault("/work")
    String workDir();

    /** Size of the work area's tmpfs. */
    @WithDefault("256M")
    MemorySize workSize();

    /** Size of the tmpfs at /tmp. */
    @WithDefault("64M")
    MemorySize tmpSize();

    /**
     * Where the agent may leave files that outlive its process (its report,
     * {@code report.json}, and its artifacts): writable by the container's user,
     * on a volume of the engine mounted at its parent, removed with the
     * container (ADR 0022). It is on the engine's disk, not bounded per dispatch
     * unless the engine's storage has project quotas.
     */
    @WithDefault("/sluice/out")
    String outDir();

    /**
     * Whether dispatch containers get the out-directory at all. Without it a
     * dispatch is spared the engine's archive upload before its start (a
     * re-executed engine process, about 35 ms here) and the two reads after its
     * exit; reports then come only from stdout's last line, and no artifacts
     * are kept (ADR 0041).
     */
    @WithDefault("true")
    boolean outDirEnabled();

    /**
     * Whether dispatch containers run their command under the output witness
     * (ADR 0045), which counts what the process writes before the engine
     * copies it, so a result never claims output the engine dropped, and keeps
     * the container until the engine has read it all. It lives on the
     * out-directory's volume, so it is off when that is.
     */
    @WithDefault("true")
    boolean witnessEnabled();

    /**
     * How long the witness keeps a container whose process has exited, waiting
     * for the engine to read what it relayed, before it lets it end anyway.
     */
    @WithDefault("10s")
    Duration witnessDrainTimeout();

    /**
     * How a container without a network ({@code network: none}) is isolated
     * (ADR 0047): {@code auto}, the default, chooses from the engine's version
     * at start; {@code docker} is the engine's own {@code none} network, a
     * sandbox of its network controller, which engines before 20.10.27 can
     * deadlock when such containers exit together (ADR 0042); {@code bare} is a
     * network namespace with loopback alone and no part of that controller,
     * whose /etc/hosts is a read-only file the worker keeps on the engine's
     * volume {@code sluice-etc-hosts} and checks before each start (ADR 0043).
     * {@code auto} takes {@code bare} on an engine before 20.10.27 and
     * {@code docker} on any other, or on one whose version it cannot read.
     */
    @WithDefault("auto")
    NoneNetwork noneNetwork();

    /** See {@link #noneNetwork()}. */
    enum NoneNetwork {
        AUTO,
        DOCKER,
        BARE
    }

    /**
     * The user and group dispatch containers run as, {@code uid:gid} in
     * numbers: the user for images that name none, or whose user is root in
     * any spelling ({@code 0}, {@code 00}, {@code root}, a name their
     * /etc/passwd maps to 0), and the group for every image, whatever group
     * it names (ADR 0055). {@code image} keeps whatever the image says, root
     * and its groups included.
     */
    @WithDefault("65534:65534")
    String user();

    /**
     * Runtimes a dispatch may name in its {@code runtime}, as the engine has
     * them registered: {@code runsc} for gVisor, for agents that should not
     * share the host's kernel (ADR 0061; docs/operations.md, "Runtimes").
     * Unset, a dispatch names none and runs under the engine's default.
     */
    Optional<List<String>> runtimes();

    /**
     * Images whose root user is kept (uid 0, still with the configured group
     * and without the dropped capabilities): patterns as for
     * {@code sluice.images.allowed}, comma-separated. Unset, no image runs as
     * root (ADR 0055).
     */
    Optional<List<String>> rootAllowedImages();

    /**
     * Size of the tmpfs mounted at each path an image declares a volume at
     * ({@code VOLUME} in its Dockerfile), instead of the unbounded anonymous
     * volume the engine would make on its disk; it counts against the
     * container's memory as the work area does (ADR 0055).
     */
    @WithDefault("64M")
    MemorySize imageVolumeSize();

    /**
     * The most the out-directory's volume may hold, where the engine can bound
     * it: its {@code local} driver takes a size only when the engine's volumes
     * are on xfs with project quotas ({@code pquota}). The worker asks the
     * engine once; where it cannot, the volume is unbounded and the worker says
     * so at the first dispatch (docs/operations.md, "Disk"). {@code 0} asks for
     * no bound.
     */
    @WithDefault("1G")
    MemorySize outDirSize();

    /**
     * Docker log driver; it must support reading back. {@code json-file} keeps
     * text exact, long lines included; {@code local} is more compact but drops
     * the newline after a line over 16 KiB (ADR 0013).
     */
    @WithDefault("json-file")
    String logDriver();

    /**
     * Size of one log file before rotation. With the default files, a 1 GiB
     * stream of lines of 100 bytes or more is kept whole; a longer one loses
     * its beginning, and the result says from which byte the runtime still
     * holds each stream ({@code logs.availableFrom}, ADR 0032).
     */
    @WithDefault("128M")
    MemorySize logMaxSize();

    /** Log files kept per container: the log holds at least size times (files - 1) of the driver's records. */
    @WithDefault("16")
    int logMaxFiles();

    /**
     * Whether rotated log files are compressed (the {@code json-file} and
     * {@code local} drivers only): a GiB of text takes tens of MB of disk
     * instead of nearly two GB (ADR 0032).
     */
    @WithDefault("true")
    boolean logCompress();

    /** How long a finished container (and so its full log) is kept before the reaper removes it. */
    @WithDefault("24h")
    Duration retention();

    /**
     * The most finished containers kept, whatever their age: past it the oldest
     * go first. An engine holding thousands of exited containers stalls.
     */
    @WithDefault("500")
    int maxRetained();

    /**
     * The most log the kept finished containers may hold together (counted as
     * what their dispatches printed, each at most its rotation budget): past it
     * the oldest go first.
     */
    @WithDefault("10G")
    MemorySize maxRetainedLogBytes();
}
