package dev.sluice.container;

import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.ListContainersCmd;
import com.github.dockerjava.api.command.RemoveContainerCmd;
import com.github.dockerjava.api.command.StartContainerCmd;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineIdentity;
import dev.sluice.container.engine.OutFile;
import dev.sluice.container.files.OutArchive;
import dev.sluice.container.files.OutDirectory;
import dev.sluice.container.files.WitnessKey;
import dev.sluice.container.files.WitnessRecord;
import dev.sluice.container.files.WorkspaceUpload;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.ContainerUser;
import dev.sluice.container.sandbox.HostsFile;
import dev.sluice.container.sandbox.HostsFileCheck;
import dev.sluice.container.sandbox.HostsFileWriter;
import dev.sluice.container.sandbox.ImagePasswd;
import dev.sluice.container.sandbox.ImagePatterns;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.container.sandbox.NoneNetworkChoice;
import dev.sluice.container.stream.Attachment;

/**
 * The dispatch's view of the engine: create a hardened container, attach, start,
 * wait, signal, inspect, remove. Every call to the engine ends within the call
 * timeout or fails with {@code ENGINE_UNAVAILABLE} saying so (ADR 0016); for
 * wait and attach, the timeout bounds the setup, not the stream. Creates,
 * starts and removals first wait their turn among the engine changes in
 * flight, for at most the call timeout too. Stop and remove are idempotent:
 * "not found", "not modified" and "conflict" count as done.
 */
public class ContainerRuntime implements ContainerInventory {

    /** The network a request names for no network at all. */
    private static final String NONE = "none";

    private final DockerClients clients;
    private final ContainerConfig config;
    private final OutDirectory outDir;
    private final HostsFile hosts;
    private final HostsFileCheck hostsCheck;
    private final NoneNetworkChoice noneNetwork;
    private final ContainerUser user;
    private final ImagePatterns rootAllowed;
    private final ImagePasswd passwd;

    public ContainerRuntime(DockerClients clients, ContainerConfig config) {
        this(clients, config, HostsFile.VOLUME);
    }

    /** @param hostsVolume the volume of bare namespaces' /etc/hosts: tests that spoil it keep it to themselves */
    ContainerRuntime(DockerClients clients, ContainerConfig config, String hostsVolume) {
        this.clients = clients;
        this.config = config;
        this.outDir = new OutDirectory(clients, config);
        this.hosts = new HostsFile(clients, hostsVolume, new HostsFileWriter(clients, this::remove));
        this.hostsCheck = new HostsFileCheck(clients, hosts);
        this.noneNetwork = new NoneNetworkChoice(config.noneNetwork(), clients);
        this.user = ContainerUser.of(config.user());
        this.rootAllowed = new ImagePatterns(config.rootAllowedImages().orElse(List.of()));
        this.passwd = new ImagePasswd(clients, this::remove);
    }

    /**
     * Creates the container with its out-directory, and its workspace when
     * it has one (ADR 0060); throws {@link ContainerException}
     * with {@code IMAGE_NOT_FOUND} when the image is missing. A container whose
     * out-directory could not be added is removed again. A bare namespace's
     * /etc/hosts found missing is written once and the create tried again; one
     * found not to be the worker's file is written again, and if it still is
     * not, the container is removed and the create fails (ADR 0047).
     */
    public String create(ContainerSpec spec) {
        return create(spec, image(spec.image()));
    }

    /**
     * {@link #create(ContainerSpec)} of an image already inspected by {@link #findImage}: a dispatch
     * inspects its image once, to know whether to pull it and which digest runs (ADR 0059).
     */
    public String create(ContainerSpec spec, ImageFacts image) {
        Optional<ContainerUser.RunAs> runAs = runAs(spec, image);
        WitnessKey key = WitnessKey.random();
        String id = createContainer(spec, image, runAs, key, true);
        try {
            if (bare(spec)) {
                hostsCheck.check(id, spec.labels());
            }
            outDir.prepare(id, runAs, key);
            if (spec.workspace() != null) {
                WorkspaceUpload.put(clients, id, config.workDir(), spec.workspace(), runAs);
            }
        } catch (ContainerException e) {
            try {
                remove(id);
            } catch (ContainerException gone) {
                // the reaper finds it by its labels
            }
            throw e;
        }
        return id;
    }

    /**
     * Adds the out-directory and the witness to a created container that never
     * started, again: a worker that stopped between the create and its upload
     * left it without them, and its entrypoint is the witness (ADR 0045). The
     * upload replaces what is there, so it may repeat one that went through.
     * A bare namespace's /etc/hosts is checked as at the create: the worker
     * may have stopped before it was. The directory's owner is the user the
     * container was created with.
     */
    public void prepareAgain(String containerId) {
        prepareAgain(containerId, null);
    }

    /** As {@link #prepareAgain(String)}, placing {@code workspace} (a checked tar) in its work area again too. */
    public void prepareAgain(String containerId, Path workspace) {
        InspectContainerResponse created;
        try {
            created = clients.control().inspectContainerCmd(containerId).exec();
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect", e);
        }
        boolean bindsHosts = created.getMounts() != null
                && created.getMounts().stream()
                        .anyMatch(m -> m.getDestination() != null
                                && HostsFile.TARGET.equals(m.getDestination().getPath()));
        if (bindsHosts) {
            hostsCheck.check(containerId, created.getConfig().getLabels());
        }
        Optional<ContainerUser.RunAs> user =
                ContainerUser.RunAs.parse(created.getConfig().getUser());
        outDir.prepare(
                containerId, user, witnessKey(created.getConfig().getLabels()).orElse(null));
        if (workspace != null) {
            WorkspaceUpload.put(clients, containerId, config.workDir(), workspace, user);
        }
    }

    private String createContainer(
            ContainerSpec spec,
            ImageFacts image,
            Optional<ContainerUser.RunAs> runAs,
            WitnessKey key,
            boolean mayWriteHosts) {
        long hostsWrites = hosts.writes();
        CreateContainerCmd cmd = createCommand(spec, image, runAs, key);
        if (bare(spec)) {
            cmd.getHostConfig().getMounts().add(hosts.mount()); // ADR 0043
        }
        try {
            return clients.changes().call("create", cmd::exec).getId();
        } catch (NotFoundException e) {
            throw new ContainerException(
                    ContainerException.Reason.IMAGE_NOT_FOUND,
                    "image " + spec.image() + " is not present on the engine");
        } catch (RuntimeException e) {
            if (mayWriteHosts && HostsFile.missing(e)) {
                hosts.write(hostsWrites, spec.labels());
                return createContainer(spec, image, runAs, key, false);
            }
            if (spec.runtime() != null && ContainerException.unknownRuntime(e)) {
                throw new ContainerException(
                        ContainerException.Reason.RUNTIME_UNAVAILABLE,
                        "the engine has no runtime named " + spec.runtime()
                                + "; it must be registered with the engine (docs/operations.md, \"Runtimes\")");
            }
            throw ContainerException.from("create", e);
        }
    }

    /**
     * A file the agent left in the out-directory, read after the exit: only a
     * regular file of at most {@code maxBytes}, never more than that read.
     */
    public OutFile readOutFile(String containerId, String name, int maxBytes) {
        return outDir.read(containerId, name, maxBytes);
    }

    /**
     * Walks a directory the agent left in the out-directory, after the exit:
     * only regular files with safe names are offered, never more than
     * {@code limit} bytes of the engine's archive read (ADR 0029).
     */
    public OutArchive.End walkOutDirectory(String containerId, String dir, long limit, OutArchive.Visitor visitor) {
        return outDir.walk(containerId, dir, limit, visitor);
    }

    public OutDirectory outDirectory() {
        return outDir;
    }

    /**
     * What the output witness left of a container's run (ADRs 0045, 0070),
     * read after its exit, as {@code exited} (the container's inspection after
     * it) describes the container; a record that cannot be believed says why,
     * the witness's being off included.
     */
    public WitnessRecord readWitness(String containerId, ContainerState exited) {
        return outDir.witnessRecord(containerId, Optional.ofNullable(exited.witnessKey()))
                .killedIf(exited.exitCode());
    }

    /** The witness's copy of a stream's last bytes: read only when the stream arrived short. */
    public OutFile readWitnessTail(String containerId, boolean stdout) {
        return outDir.witnessTail(containerId, stdout);
    }

    /**
     * Settles how containers of {@code network: none} are isolated, and looks
     * up the volume of bare namespaces' /etc/hosts if they get one (ADRs 0043,
     * 0047); for the warm-up, which changes nothing.
     */
    void lookUpHostsFile() {
        if (noneNetwork.bare()) {
            hosts.lookUp();
        }
    }

    /** How containers of {@code network: none} are isolated and why, settled for {@code engine} if not yet. */
    NoneNetworkChoice.Choice noneNetworkChoice(EngineIdentity engine) {
        return noneNetwork.settle(engine);
    }

    /**
     * @param runAs the user settled for it by {@link #runAs}; empty keeps the image's
     * @param key   its witness's key, kept on it as a label (ADR 0070)
     */
    CreateContainerCmd createCommand(
            ContainerSpec spec, ImageFacts image, Optional<ContainerUser.RunAs> runAs, WitnessKey key) {
        Map<String, String> labels = new HashMap<>(spec.labels());
        labels.put(WitnessKey.LABEL, key.label());
        CreateContainerCmd cmd = clients.control()
                .createContainerCmd(spec.image())
                .withTty(false)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .withAttachStdin(spec.openStdin())
                .withStdinOpen(spec.openStdin())
                .withStdInOnce(spec.openStdin())
                .withEnv(envList(spec.env()))
                .withLabels(labels)
                .withWorkingDir(spec.workingDir() != null ? spec.workingDir() : config.workDir())
                .withHostConfig(hostConfig(spec));
        List<String> command = spec.command() != null && !spec.command().isEmpty() ? spec.command() : null;
        List<String> run = image.command(command);
        boolean witnessed = outDir.witness().on() && !run.isEmpty();
        if (witnessed) {
            // The engine takes an entrypoint given at create as the whole command: the image's own
            // entrypoint and command are inside the witness's arguments, as the engine would join them.
            cmd.withEntrypoint(outDir.witness().wrap(run));
        } else if (command != null) {
            cmd.withCmd(command);
        }
        // The witness is PID 1 itself: it reaps and forwards signals as an init does, and as PID 1 no
        // process of the command may kill or stop it (ADR 0070). An init before it would be a process
        // of the same user whose descriptors are the engine's streams.
        cmd.getHostConfig().withInit(config.init() && !witnessed);
        if (bare(spec)) {
            cmd.withNetworkDisabled(true); // a namespace of its own, with loopback alone, and no sandbox
        }
        runAs.ifPresent(u -> cmd.withUser(u.spec()));
        List<com.github.dockerjava.api.model.Mount> mounts = new ArrayList<>(outDir.mounts(spec.labels()));
        Map<String, String> tmpfs = tmpfs(image, runAs);
        if (spec.workspace() != null) {
            tmpfs.remove(config.workDir()); // a tmpfs is empty until the start: the workspace needs a volume
            mounts.add(WorkspaceUpload.mount(config.workDir(), outDir, spec.labels()));
        }
        cmd.getHostConfig().withTmpFs(tmpfs).withMounts(mounts);
        return cmd;
    }

    /**
     * Whether the container gets a bare namespace, with the worker's
     * /etc/hosts, rather than Docker's {@code none} network (ADRs 0042, 0043,
     * 0047).
     */
    private boolean bare(ContainerSpec spec) {
        return NONE.equals(spec.network()) && noneNetwork.bare();
    }

    /**
     * What the image says of how it runs: its id, its user, its entrypoint and
     * command, and the paths it declares volumes at; and where it came from:
     * the {@code repository@sha256:...} content digests the engine holds for it,
     * none for an image loaded by hand.
     */
    public record ImageFacts(
            String id,
            String user,
            List<String> entrypoint,
            List<String> cmd,
            List<String> volumes,
            List<String> repoDigests) {

        /** An image that says nothing, for the warm-up. */
        static ImageFacts none() {
            return new ImageFacts("", "", List.of(), List.of(), List.of(), List.of());
        }

        /** The command the engine would run: the entrypoint, then {@code command} or else the image's own. */
        List<String> command(List<String> command) {
            List<String> run = new ArrayList<>(entrypoint);
            run.addAll(command != null ? command : cmd);
            return run;
        }
    }

    ImageFacts image(String image) {
        return findImage(image)
                .orElseThrow(() -> new ContainerException(
                        ContainerException.Reason.IMAGE_NOT_FOUND, "image " + image + " is not present on the engine"));
    }

    /** The image as the engine holds it; empty when it holds none by that reference. One call to the engine. */
    public Optional<ImageFacts> findImage(String image) {
        try {
            var inspected = clients.control().inspectImageCmd(image).exec();
            var config = inspected.getConfig();
            String user = config == null ? null : config.getUser();
            return Optional.of(new ImageFacts(
                    inspected.getId() == null ? image : inspected.getId(),
                    user == null ? "" : user,
                    config == null ? List.of() : list(config.getEntrypoint()),
                    config == null ? List.of() : list(config.getCmd()),
                    config == null || config.getVolumes() == null
                            ? List.of()
                            : List.copyOf(config.getVolumes().keySet()),
                    inspected.getRepoDigests() == null ? List.of() : List.copyOf(inspected.getRepoDigests())));
        } catch (NotFoundException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect image", e);
        }
    }

    /**
     * The user a container of {@code image} runs as, in numbers (ADR 0055): the
     * image's uid unless it is root and root is not allowed for the image,
     * always with the configured group; empty only when the image's user is
     * kept as it is ({@code sluice.container.user=image}).
     */
    Optional<ContainerUser.RunAs> runAs(ContainerSpec spec, ImageFacts image) {
        return user.decide(
                image.user(),
                rootAllowed.matches(spec.image()),
                name -> passwd.uid(image.id(), name, spec.labels(), imageVolumes(image, Optional.empty())));
    }

    /**
     * Rotation within the stated budget; compression only where the driver
     * knows the option. Podman keeps one file, which it empties when it
     * reaches {@code max-size}, and ignores {@code max-file} and
     * {@code compress}: it is given the whole budget as that one file's size
     * (ADR 0078).
     */
    private Map<String, String> logOptions() {
        if (clients.knownPodman()) {
            return Map.of("max-size", Long.toString(config.logMaxSize().asLongValue() * config.logMaxFiles()));
        }
        Map<String, String> options = new HashMap<>();
        options.put("max-size", Long.toString(config.logMaxSize().asLongValue()));
        options.put("max-file", Integer.toString(config.logMaxFiles()));
        if (config.logDriver().equals("json-file") || config.logDriver().equals("local")) {
            options.put("compress", Boolean.toString(config.logCompress()));
        }
        return options;
    }

    private HostConfig hostConfig(ContainerSpec spec) {
        HostConfig host = HostConfig.newHostConfig()
                .withNetworkMode(spec.network())
                .withRuntime(spec.runtime())
                .withAutoRemove(false)
                .withReadonlyRootfs(config.readOnlyRoot())
                .withLogConfig(new LogConfig(LogConfig.LoggingType.fromValue(config.logDriver()), logOptions()));
        if (config.dropCapabilities()) {
            host.withCapDrop(Capability.ALL);
        }
        if (config.noNewPrivileges()) {
            host.withSecurityOpts(List.of("no-new-privileges"));
        }
        if (spec.memoryBytes() > 0) {
            host.withMemory(spec.memoryBytes()).withMemorySwap(spec.memoryBytes());
        }
        if (spec.nanoCpus() > 0) {
            host.withNanoCPUs(spec.nanoCpus());
        }
        if (spec.pids() > 0) {
            host.withPidsLimit(spec.pids());
        }
        return host;
    }

    /**
     * The writable areas. They belong to the user we run as when we know its
     * numbers: the engine resets the mode of a tmpfs that is also the working
     * directory, so {@code mode=1777} alone would leave it root's.
     */
    private Map<String, String> tmpfs(ImageFacts image, Optional<ContainerUser.RunAs> user) {
        String owner = owner(user);
        Map<String, String> mounts = imageVolumes(image, user);
        mounts.put(
                config.workDir(),
                "rw,nosuid,nodev,mode=1777,size=" + config.workSize().asLongValue() + owner);
        if (!config.workDir().equals("/tmp")) {
            mounts.put(
                    "/tmp", "rw,nosuid,nodev,mode=1777,size=" + config.tmpSize().asLongValue() + owner);
        }
        return mounts;
    }

    /**
     * A tmpfs of {@code image-volume-size} at each path the image declares a
     * volume at (ADR 0055): the engine would otherwise make an anonymous
     * volume there, on its own disk, with no bound at all. What the image
     * holds at such a path is not copied in. The worker's own mounts (the work
     * area, /tmp, the out-directory's volume) take their paths as they are.
     */
    private Map<String, String> imageVolumes(ImageFacts image, Optional<ContainerUser.RunAs> user) {
        Map<String, String> mounts = new HashMap<>();
        for (String declared : image.volumes()) {
            String path = declared.length() > 1 ? declared.replaceFirst("/+$", "") : declared;
            boolean ours = path.equals(outDir.volumeTarget()) || path.equals(HostsFile.TARGET);
            if (path.startsWith("/") && !path.equals("/") && !ours) {
                mounts.put(
                        path,
                        "rw,nosuid,nodev,mode=1777,size="
                                + config.imageVolumeSize().asLongValue() + owner(user));
            }
        }
        return mounts;
    }

    /**
     * The tmpfs options that give it to the user: Podman refuses {@code uid}
     * and {@code gid} for a tmpfs ("unknown mount option"), and its {@code U}
     * gives it to the container's user, which is this one (ADR 0078).
     */
    private String owner(Optional<ContainerUser.RunAs> user) {
        if (clients.knownPodman()) {
            return user.map(u -> ",U").orElse("");
        }
        return user.map(u -> ",uid=" + u.uid() + ",gid=" + u.gid()).orElse("");
    }

    private static List<String> list(String[] values) {
        return values == null ? List.of() : List.of(values);
    }

    private static List<String> envList(Map<String, String> env) {
        List<String> list = new ArrayList<>(env.size());
        env.forEach((k, v) -> list.add(k + "=" + v));
        return list;
    }

    /**
     * Attaches before start, over a connection of its own (ADR 0012) set up within the call timeout; returns once
     * the engine has established the attach.
     */
    public Attachment attach(String containerId, byte[] stdin) {
        return Attachment.open(clients.streamingHttp(), containerId, stdin, clients.attachThreads());
    }

    public void start(String containerId) {
        try {
            StartContainerCmd start = clients.control().startContainerCmd(containerId);
            clients.changes().run("start", start::exec);
        } catch (NotModifiedException e) {
            // already started
        } catch (RuntimeException e) {
            throw ContainerException.from("start", e);
        }
    }

    /** Blocks until the container has stopped and returns its exit code; only the wait's setup has a deadline. */
    public int awaitExit(String containerId) {
        try {
            return clients.streaming().waitContainerCmd(containerId).start().awaitStatusCode();
        } catch (RuntimeException e) {
            throw ContainerException.from("wait", e);
        }
    }

    /** Sends a signal; a container that is gone or not running counts as signalled. */
    public void signal(String containerId, String signal) {
        try {
            clients.control().killContainerCmd(containerId).withSignal(signal).exec();
        } catch (NotFoundException | ConflictException | NotModifiedException e) {
            // gone or not running: nothing to stop
        } catch (RuntimeException e) {
            throw ContainerException.from("kill", e);
        }
    }

    /** The container's state; empty when it is gone. */
    public Optional<ContainerState> inspect(String containerId) {
        InspectContainerResponse inspected;
        try {
            inspected = clients.control().inspectContainerCmd(containerId).exec();
        } catch (NotFoundException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect", e);
        }
        InspectContainerResponse.ContainerState state = inspected.getState();
        Long exitCode = state.getExitCodeLong();
        return Optional.of(new ContainerState(
                "created".equals(state.getStatus()),
                Boolean.TRUE.equals(state.getRunning()),
                exitCode == null ? null : exitCode.intValue(),
                time(state.getStartedAt()),
                time(state.getFinishedAt()),
                Boolean.TRUE.equals(state.getOOMKilled()),
                inspected.getHostConfig() == null
                        ? null
                        : inspected.getHostConfig().getRuntime(),
                inspected.getConfig() == null
                        ? null
                        : witnessKey(inspected.getConfig().getLabels()).orElse(null)));
    }

    private static Optional<WitnessKey> witnessKey(Map<String, String> labels) {
        return labels == null ? Optional.empty() : WitnessKey.fromLabel(labels.get(WitnessKey.LABEL));
    }

    /** The engine's RFC 3339 times; it says {@code 0001-01-01T00:00:00Z} for "not yet". */
    private static Instant time(String engineTime) {
        try {
            Instant t = OffsetDateTime.parse(engineTime).toInstant();
            return t.getEpochSecond() > 0 ? t : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public List<ManagedContainer> managed() {
        return listed(list -> list.withLabelFilter(List.of(Labels.DISPATCH_ID)));
    }

    @Override
    public List<ManagedContainer> managedBy(String workerId) {
        // The engine keeps a container only if it matches every label filter.
        return listed(list -> list.withLabelFilter(List.of(Labels.DISPATCH_ID, Labels.WORKER_ID + "=" + workerId)));
    }

    /** Every container the filter lets the engine answer with, running or not. */
    private List<ManagedContainer> listed(UnaryOperator<ListContainersCmd> filter) {
        try {
            return filter.apply(clients.control().listContainersCmd().withShowAll(true)).exec().stream()
                    .map(c -> new ManagedContainer(
                            c.getId(),
                            c.getLabels().get(Labels.DISPATCH_ID),
                            c.getLabels().get(Labels.WORKER_ID),
                            c.getLabels().get(Labels.STORE_ID),
                            c.getState() == null ? "" : c.getState(),
                            c.getCreated() == null ? Instant.EPOCH : Instant.ofEpochSecond(c.getCreated())))
                    .toList();
        } catch (RuntimeException e) {
            throw ContainerException.from("list containers", e);
        }
    }

    @Override
    public void remove(String containerId) {
        try {
            RemoveContainerCmd remove = clients.control()
                    .removeContainerCmd(containerId)
                    .withForce(true)
                    .withRemoveVolumes(true);
            clients.changes().run("remove", remove::exec);
        } catch (NotFoundException | ConflictException | NotModifiedException e) {
            // already gone, or its removal is already under way
        } catch (RuntimeException e) {
            throw ContainerException.from("remove", e);
        }
    }
}
