package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.github.dockerjava.api.model.EventType;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ImagePasswd;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.testsupport.EngineEvents;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.TestDocker;

/**
 * Images whose user is root in spellings a string comparison misses, or that
 * name a group of their own, run as dispatches against the real engine (ADR
 * 0055): each prints what the kernel says of its process ({@code id -u},
 * {@code id -g}, {@code id -G}), which must be the configured user and group
 * alone, or the image's non-root uid with the configured group alone. Root is
 * kept only for an image the operator listed. The images are built in the
 * test from the test image, with the user and files each needs.
 */
@EngineWide
class HostileUserIT {

    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String ID = "id -u; id -g; id -G";
    private static final String CONFIGURED = "65534\n65534\n65534\n";

    private static DockerClients clients;
    private static ContainerRuntime runtime;
    private static final List<String> images = new ArrayList<>();

    @BeforeAll
    static void connect() {
        clients = TestDocker.clients();
        runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
    }

    @AfterAll
    static void removeImages() throws Exception {
        for (String image : images) {
            clients.control().removeImageCmd(image).withForce(true).exec();
        }
        clients.close();
    }

    @ParameterizedTest
    @CsvSource({"00", "0000:0", "0:0", "root", "toor", "toor:1000", "ghost"})
    void rootInAnySpellingRunsAsTheConfiguredUserAndGroup(String user) throws Exception {
        String image = image("root-" + user.replace(':', '-'), user, withPasswdAndGroups());

        assertThat(run(runtime, image, ID)).as(user).isEqualTo(CONFIGURED);
    }

    @ParameterizedTest
    @CsvSource({"1000:0, 1000", "app, 1000", "app:wheel, 1000"})
    void aNonRootUserKeepsItsUidButNeverItsGroups(String user, String uid) throws Exception {
        String image = image("group-" + user.replace(':', '-'), user, withPasswdAndGroups());

        assertThat(run(runtime, image, ID)).as(user).isEqualTo(uid + "\n65534\n65534\n");
    }

    /** A passwd that is a link (here to the engine host's) settles nothing: the configured user. */
    @Test
    void aPasswdThatIsALinkIsNotFollowed() throws Exception {
        TarArchiveEntry etc = new TarArchiveEntry("etc/");
        TarArchiveEntry link = new TarArchiveEntry("etc/passwd", TarConstants.LF_SYMLINK);
        link.setLinkName("/proc/1/root/etc/passwd");
        String image = image("passwd-link", "root", List.of(empty(etc), empty(link)));

        assertThat(run(runtime, image, ID)).isEqualTo(CONFIGURED);
    }

    @Test
    void rootIsKeptForAnImageTheOperatorListedWithTheConfiguredGroup() throws Exception {
        String listed = image("root-listed", "00", withPasswdAndGroups());
        String other = image("root-unlisted", "toor", withPasswdAndGroups());
        ContainerRuntime allowing = new ContainerRuntime(
                clients, TestDocker.containerConfigAllowingRoot(List.of("sluice-it/root-listed:*")));

        assertThat(run(allowing, listed, ID)).isEqualTo("0\n65534\n65534\n");
        assertThat(run(allowing, other, ID)).isEqualTo(CONFIGURED);
    }

    /**
     * The passwd is read once per image and name, by a container that never
     * starts and is removed; and a declared volume is a bounded tmpfs owned by
     * the container's user, never an anonymous volume on the engine's disk.
     */
    @Test
    void thePasswdIsReadWithoutStartingTheImageAndVolumesAreBoundedTmpfs() throws Exception {
        String image = image("volume", "toor", withPasswdAndGroups(), "/data");
        Instant since = Instant.now();

        String script = "grep ' /data ' /proc/mounts | cut -d' ' -f3,4; stat -c '%u:%g' /data;"
                + " head -c 17M /dev/zero > /data/fill 2>/dev/null; echo $?";
        String first = run(runtime, image, script);
        String second = run(runtime, image, script);

        assertThat(first)
                .isEqualTo(
                        "tmpfs rw,nosuid,nodev,noexec,relatime,size=16384k,uid=65534,gid=65534\n" + "65534:65534\n1\n");
        assertThat(second).isEqualTo(first);
        var creates = EngineEvents.since(clients, EventType.CONTAINER, "create", since).stream()
                .filter(e -> e.getActor()
                        .getAttributes()
                        .getOrDefault(Labels.DISPATCH_ID, "")
                        .startsWith(ImagePasswd.HELPER))
                .toList();
        assertThat(creates).hasSize(1);
        String helper = creates.get(0).getActor().getId();
        assertThat(EngineEvents.since(clients, EventType.CONTAINER, "start", since))
                .noneMatch(e -> helper.equals(e.getActor().getId()));
        assertThat(EngineEvents.since(clients, EventType.CONTAINER, "destroy", since))
                .anyMatch(e -> helper.equals(e.getActor().getId()));
    }

    /** What a dispatch of {@code image} printed running {@code script}; it must exit 0. */
    private static String run(ContainerRuntime runtime, String image, String script) throws Exception {
        String id = runtime.create(TestDocker.shellSpec(image, script, "it-user-" + UUID.randomUUID(), "test"));
        try {
            var inspected = clients.control().inspectContainerCmd(id).exec();
            assertThat(inspected.getMounts())
                    .as("anonymous volumes of %s", image)
                    .noneMatch(m -> "/data".equals(m.getDestination().getPath()));
            runtime.start(id);
            assertThat(runtime.awaitExit(id)).as("exit of %s", image).isZero();
            return TestDocker.output(clients, id);
        } finally {
            runtime.remove(id);
        }
    }

    /** An /etc/passwd mapping toor to 0 and app to 1000 (primary group 0), an /etc/group putting app in two more. */
    private static List<ArchiveUpload.Entry> withPasswdAndGroups() {
        return List.of(
                empty(new TarArchiveEntry("etc/")),
                file(
                        "etc/passwd",
                        "root:x:0:0:root:/root:/bin/sh\ntoor:x:0:0:root again:/:/bin/sh\n"
                                + "app:x:1000:0:app:/:/bin/sh\n"),
                file("etc/group", "root:x:0:app\nwheel:x:10:app\napp:x:1000:app\n"));
    }

    private static String image(String name, String user, List<ArchiveUpload.Entry> entries, String... volumes) {
        TestDocker.ImageBuilder image = TestDocker.image(clients, "sluice-it/" + name, RUN)
                .user(user)
                .cmd("sh")
                .volumes(volumes);
        entries.forEach(entry -> image.entry(entry.header(), entry.data()));
        String built = image.build();
        images.add(built);
        return built;
    }

    private static ArchiveUpload.Entry file(String path, String content) {
        byte[] bytes = content.getBytes(StandardCharsets.US_ASCII);
        TarArchiveEntry entry = new TarArchiveEntry(path);
        entry.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | 0644);
        entry.setSize(bytes.length);
        return new ArchiveUpload.Entry(entry, bytes);
    }

    private static ArchiveUpload.Entry empty(TarArchiveEntry header) {
        return new ArchiveUpload.Entry(header, new byte[0]);
    }
}
