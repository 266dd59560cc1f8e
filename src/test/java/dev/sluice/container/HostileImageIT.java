package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.VolumeOptions;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.HostsFile;
import dev.sluice.container.sandbox.HostsFileWriter;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.testsupport.EngineEvents;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.TestDocker;

/**
 * Images made to subvert the hosts file of bare network namespaces (ADR 0047),
 * run as dispatches against the real engine: one holds, where a container
 * would mount the hosts file's volume, a link named {@code hosts} to a file of
 * the engine's host; the other a directory of that name. A container of such
 * an image created against an empty volume copies them into it, and the
 * engine follows the link when it binds the file: no container may ever see
 * anything at /etc/hosts but the worker's bytes, in either mode, and the
 * image must never serve as the writer. A volume spoiled that way beforehand
 * (as a worker before ADR 0047 could leave it) is written again before any
 * start; one that cannot be made right fails the create, and nothing starts.
 *
 * <p>The volume is one of this test's own: spoiling the shared one would
 * spoil every other test's containers on this engine. The engine must run on
 * this host (the link's target is a file the test writes).
 */
@EngineWide
class HostileImageIT {

    /** Where both a writer of the hosts file and a writer before ADR 0047 mount its volume. */
    private static final String MOUNT = HostsFileWriter.MOUNT;

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    private enum Hostile {
        LINK,
        DIRECTORY
    }

    private static DockerClients clients;
    private static Path marker;
    private static byte[] markerBytes;
    private static String linkImage;
    private static String directoryImage;

    private String volume;

    @BeforeAll
    static void buildHostileImages() throws Exception {
        clients = TestDocker.clients();
        marker = Files.createTempFile("sluice-hostile-", ".marker");
        markerBytes = ("a file of the engine's host, " + RUN + "\n").getBytes(StandardCharsets.US_ASCII);
        Files.write(marker, markerBytes);

        TarArchiveEntry dir = new TarArchiveEntry(MOUNT.substring(1) + "/");
        TarArchiveEntry link = new TarArchiveEntry(MOUNT.substring(1) + "/hosts", TarConstants.LF_SYMLINK);
        link.setLinkName(marker.toString());
        linkImage = TestDocker.image(clients, "sluice-it/hostile-link", RUN)
                .entry(dir)
                .entry(link)
                .build();

        TarArchiveEntry hostsDir = new TarArchiveEntry(MOUNT.substring(1) + "/hosts/");
        TarArchiveEntry inside = new TarArchiveEntry(MOUNT.substring(1) + "/hosts/inside");
        byte[] insideBytes = "127.0.0.1\tsomewhere-else\n".getBytes(StandardCharsets.US_ASCII);
        directoryImage = TestDocker.image(clients, "sluice-it/hostile-dir", RUN)
                .entry(dir)
                .entry(hostsDir)
                .entry(inside, insideBytes)
                .build();
    }

    @AfterAll
    static void removeHostileImages() throws Exception {
        for (String image : List.of(linkImage, directoryImage)) {
            if (image != null) {
                clients.control().removeImageCmd(image).withForce(true).exec();
            }
        }
        Files.deleteIfExists(marker);
        clients.close();
    }

    @BeforeEach
    void freshVolume() {
        volume = "sluice-etc-hosts-it-" + RUN + "-"
                + UUID.randomUUID().toString().substring(0, 4);
    }

    @AfterEach
    void removeVolume() {
        try {
            clients.control().removeVolumeCmd(volume).exec();
        } catch (NotFoundException e) {
            // never made
        }
    }

    /**
     * Against a fresh volume, each hostile image's dispatch and then an
     * ordinary one print the worker's bytes at /etc/hosts, in both modes;
     * the one write there is (bare) is made by the writer's image; Docker's
     * none network never touches the volume.
     */
    @ParameterizedTest
    @EnumSource(
            value = ContainerConfig.NoneNetwork.class,
            names = {"BARE", "DOCKER"})
    void hostileImagesSeeOnlyTheWorkersHostsFile(ContainerConfig.NoneNetwork mode) throws Exception {
        ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig(mode), volume);

        List<Event> created = containerCreates(() -> {
            for (String image : List.of(linkImage, directoryImage, linkImage, TestDocker.AGENT_IMAGE)) {
                assertThat(etcHosts(runtime, image)).as(image).isEqualTo(HostsFile.CONTENT);
            }
        });

        List<Event> writers = created.stream().filter(HostileImageIT::isWriter).toList();
        if (mode == ContainerConfig.NoneNetwork.BARE) {
            String writerImage = clients.control()
                    .inspectImageCmd(HostsFileWriter.IMAGE)
                    .exec()
                    .getId();
            assertThat(writers)
                    .singleElement()
                    .satisfies(w -> assertThat(w.getActor().getAttributes().get("image"))
                            .isEqualTo(writerImage));
            assertThat(inVolume("stat -c %F hosts")).isEqualTo("regular file\n");
        } else {
            assertThat(writers).isEmpty();
            assertThat(clients.control().listVolumesCmd().exec().getVolumes())
                    .noneMatch(v -> v.getName().equals(volume));
        }
    }

    /**
     * A volume a hostile image was let to fill (a writer made from the
     * dispatch's image did that before ADR 0047) binds the host's file, or a
     * directory; the next bare create notices it before the start, writes the
     * file again, and every dispatch after it, hostile or not, sees the
     * worker's bytes.
     */
    @ParameterizedTest
    @EnumSource(Hostile.class)
    void aSpoiledVolumeIsWrittenAgainBeforeAnyStart(Hostile hostile) throws Exception {
        String image = hostile == Hostile.LINK ? linkImage : directoryImage;
        spoil(image);
        assertThat(inVolume("stat -c %F hosts")).isEqualTo(hostile == Hostile.LINK ? "symbolic link\n" : "directory\n");
        if (hostile == Hostile.LINK) {
            // What the engine makes of it: the host's file, for anyone who binds it (the hazard itself).
            assertThat(boundAsEtcHosts()).isEqualTo(markerBytes);
        }
        ContainerRuntime runtime =
                new ContainerRuntime(clients, TestDocker.containerConfig(ContainerConfig.NoneNetwork.BARE), volume);

        List<Event> created = containerCreates(() -> {
            for (String dispatched : List.of(TestDocker.AGENT_IMAGE, image, linkImage, directoryImage)) {
                assertThat(etcHosts(runtime, dispatched)).as(dispatched).isEqualTo(HostsFile.CONTENT);
            }
        });

        assertThat(created.stream().filter(HostileImageIT::isWriter)).hasSize(1);
        assertThat(inVolume("stat -c %F hosts")).isEqualTo("regular file\n");
        assertThat(boundAsEtcHosts()).isEqualTo(HostsFile.CONTENT);
    }

    /**
     * A file that stays wrong after it is written again (here: the volume is
     * a tmpfs, which the writer's upload goes into, while the path the engine
     * binds holds a link to the host's file) fails the create with the reason,
     * and the container is removed without ever starting.
     */
    @Test
    void aHostsFileThatStaysWrongFailsTheCreateAndNothingStarts() throws Exception {
        String mountpoint = clients.control()
                .createVolumeCmd()
                .withName(volume)
                .withDriver("local")
                .withDriverOpts(Map.of("type", "tmpfs", "device", "tmpfs", "o", "size=1m"))
                .exec()
                .getMountpoint();
        // Below the tmpfs, on the engine's host, where only a container's mount of the volume hides it.
        Files.createSymbolicLink(Path.of(mountpoint, "hosts"), marker);
        ContainerRuntime runtime =
                new ContainerRuntime(clients, TestDocker.containerConfig(ContainerConfig.NoneNetwork.BARE), volume);
        String dispatchId = "it-hostile-wrong-" + RUN;

        Instant since = Instant.now();
        assertThatThrownBy(() -> runtime.create(spec(TestDocker.AGENT_IMAGE, "cat /etc/hosts", dispatchId)))
                .isInstanceOfSatisfying(ContainerException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ContainerException.Reason.ENGINE_ERROR);
                    assertThat(e.getMessage())
                            .isEqualTo("/etc/hosts of a bare network namespace is not the worker's file on the volume "
                                    + volume + " (its bytes are not the worker's) even after it was written again;"
                                    + " the container was not started. Remove the volume, or set"
                                    + " sluice.container.none-network=docker (ADR 0047)");
                });

        assertThat(clients.control()
                        .listContainersCmd()
                        .withShowAll(true)
                        .withLabelFilter(Map.of(Labels.DISPATCH_ID, dispatchId))
                        .exec())
                .isEmpty();
        assertThat(EngineEvents.since(clients, EventType.CONTAINER, "start", since))
                .noneMatch(e -> dispatchId.equals(e.getActor().getAttributes().get(Labels.DISPATCH_ID)));
        Files.delete(Path.of(mountpoint, "hosts"));
    }

    /** The bytes a dispatch of {@code image} prints from its /etc/hosts; it must exit 0. */
    private static byte[] etcHosts(ContainerRuntime runtime, String image) throws Exception {
        String id = runtime.create(spec(image, "cat /etc/hosts", "it-hostile-" + UUID.randomUUID()));
        try {
            runtime.start(id);
            assertThat(runtime.awaitExit(id)).as("exit of %s", image).isZero();
            return stdout(id);
        } finally {
            runtime.remove(id);
        }
    }

    private static ContainerSpec spec(String image, String script, String dispatchId) {
        return TestDocker.shellSpec(image, script, dispatchId, "test");
    }

    /** What a writer made from {@code image} did before ADR 0047: create, never start, against the empty volume. */
    private void spoil(String image) {
        String id = clients.control()
                .createContainerCmd(image)
                .withCmd("true")
                .withNetworkDisabled(true)
                .withHostConfig(HostConfig.newHostConfig()
                        .withNetworkMode("none")
                        .withMounts(List.of(new Mount()
                                .withType(MountType.VOLUME)
                                .withSource(volume)
                                .withTarget(MOUNT))))
                .exec()
                .getId();
        clients.control().removeContainerCmd(id).withForce(true).exec();
    }

    /** What a container (of no dispatch) gets at /etc/hosts when it binds the volume's file as the worker does. */
    private byte[] boundAsEtcHosts() throws Exception {
        String mountpoint = clients.control().inspectVolumeCmd(volume).exec().getMountpoint();
        return run(
                HostConfig.newHostConfig()
                        .withNetworkMode("none")
                        .withMounts(List.of(new Mount()
                                .withType(MountType.BIND)
                                .withSource(mountpoint + "/hosts")
                                .withTarget("/etc/hosts")
                                .withReadOnly(true))),
                "cat /etc/hosts");
    }

    /** The output of {@code script} run in the volume's directory, mounted read-only and without a copy. */
    private String inVolume(String script) throws Exception {
        byte[] out = run(
                HostConfig.newHostConfig()
                        .withNetworkMode("none")
                        .withMounts(List.of(new Mount()
                                .withType(MountType.VOLUME)
                                .withSource(volume)
                                .withTarget("/v")
                                .withReadOnly(true)
                                .withVolumeOptions(new VolumeOptions().withNoCopy(true)))),
                "cd /v && " + script);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static byte[] run(HostConfig host, String script) throws Exception {
        String id = clients.control()
                .createContainerCmd(TestDocker.AGENT_IMAGE)
                .withCmd("sh", "-c", script)
                .withHostConfig(host)
                .exec()
                .getId();
        try {
            clients.control().startContainerCmd(id).exec();
            assertThat(clients.streaming().waitContainerCmd(id).start().awaitStatusCode(30, TimeUnit.SECONDS))
                    .as(script)
                    .isZero();
            return stdout(id);
        } finally {
            clients.control().removeContainerCmd(id).withForce(true).exec();
        }
    }

    private static byte[] stdout(String id) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultCallback.Adapter<Frame> frames = clients.control()
                .logContainerCmd(id)
                .withStdOut(true)
                .exec(new ResultCallback.Adapter<>() {
                    @Override
                    public void onNext(Frame frame) {
                        out.writeBytes(frame.getPayload());
                    }
                });
        assertThat(frames.awaitCompletion(30, TimeUnit.SECONDS)).isTrue();
        return out.toByteArray();
    }

    private static boolean isWriter(Event event) {
        Map<String, String> attributes = event.getActor().getAttributes();
        return attributes != null
                && attributes.getOrDefault(Labels.DISPATCH_ID, "").startsWith("etc-hosts-");
    }

    /** The engine's container create events while {@code action} ran. */
    private static List<Event> containerCreates(ThrowingRunnable action) throws Exception {
        Instant since = Instant.now();
        action.run();
        return EngineEvents.since(clients, EventType.CONTAINER, "create", since);
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
