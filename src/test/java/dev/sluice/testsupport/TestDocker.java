package dev.sluice.testsupport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.Volume;
import com.github.dockerjava.api.model.Volumes;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.DockerConfig;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.Labels;
import io.quarkus.runtime.configuration.MemorySize;

/** The real engine and the test agent image, for tests that run containers outside Quarkus. */
public final class TestDocker {

    /** Built from scratch by scripts/docker-engine.sh. */
    public static final String AGENT_IMAGE = System.getProperty("sluice.test.agent-image", "sluice-agent:test");

    private TestDocker() {}

    public record Docker(
            Optional<String> host,
            Duration connectTimeout,
            Duration callTimeout,
            Duration pingTimeout,
            int maxConcurrentChanges)
            implements DockerConfig {}

    public record Container(
            boolean readOnlyRoot,
            boolean dropCapabilities,
            boolean noNewPrivileges,
            boolean init,
            String workDir,
            MemorySize workSize,
            MemorySize tmpSize,
            String user,
            String logDriver,
            MemorySize logMaxSize,
            int logMaxFiles,
            boolean logCompress,
            Duration retention,
            int maxRetained,
            MemorySize maxRetainedLogBytes,
            String outDir,
            boolean outDirEnabled,
            boolean witnessEnabled,
            Duration witnessDrainTimeout,
            NoneNetwork noneNetwork,
            Optional<List<String>> runtimes,
            Optional<List<String>> rootAllowedImages,
            MemorySize imageVolumeSize,
            MemorySize outDirSize)
            implements ContainerConfig {}

    public static DockerConfig dockerConfig() {
        return new Docker(Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(2), 8);
    }

    public static ContainerConfig containerConfig() {
        return containerConfig("json-file", 128, 16);
    }

    /** The test defaults with another log driver and rotation. */
    public static ContainerConfig containerConfig(String logDriver, long logMaxSizeMib, int logMaxFiles) {
        return containerConfig(logDriver, logMaxSizeMib, logMaxFiles, true, ContainerConfig.NoneNetwork.BARE);
    }

    /** The test defaults without the out-directory (ADR 0041). */
    public static ContainerConfig containerConfigWithoutOutDir() {
        return containerConfig("json-file", 128, 16, false, ContainerConfig.NoneNetwork.BARE);
    }

    /** The test defaults with containers of {@code network: none} isolated as {@code noneNetwork} says (ADRs 0042, 0043). */
    public static ContainerConfig containerConfig(ContainerConfig.NoneNetwork noneNetwork) {
        return containerConfig("json-file", 128, 16, true, noneNetwork);
    }

    /** The test defaults with root kept for images that match {@code patterns} (ADR 0055). */
    public static ContainerConfig containerConfigAllowingRoot(List<String> patterns) {
        return containerConfig(
                "json-file", 128, 16, true, ContainerConfig.NoneNetwork.BARE, Optional.of(List.copyOf(patterns)));
    }

    private static ContainerConfig containerConfig(
            String logDriver,
            long logMaxSizeMib,
            int logMaxFiles,
            boolean outDirEnabled,
            ContainerConfig.NoneNetwork noneNetwork) {
        return containerConfig(logDriver, logMaxSizeMib, logMaxFiles, outDirEnabled, noneNetwork, Optional.empty());
    }

    private static ContainerConfig containerConfig(
            String logDriver,
            long logMaxSizeMib,
            int logMaxFiles,
            boolean outDirEnabled,
            ContainerConfig.NoneNetwork noneNetwork,
            Optional<List<String>> rootAllowedImages) {
        return new Container(
                true,
                true,
                true,
                true,
                "/work",
                mib(64),
                mib(16),
                "65534:65534",
                logDriver,
                mib(logMaxSizeMib),
                logMaxFiles,
                true,
                Duration.ofHours(1),
                500,
                mib(10 << 10),
                "/sluice/out",
                outDirEnabled,
                true,
                Duration.ofSeconds(10),
                noneNetwork,
                Optional.empty(),
                rootAllowedImages,
                mib(16),
                // No bound asked of the engine: VolumeQuotaIT asks, and other tests count every engine call.
                mib(0));
    }

    /** A small container of the test image that runs {@code script} in sh, labelled as a dispatch's of a test worker. */
    public static ContainerSpec shellSpec(String script, String dispatchId) {
        return shellSpec(script, dispatchId, "test");
    }

    /** The same, labelled as a dispatch's of the worker {@code workerId}. */
    public static ContainerSpec shellSpec(String script, String dispatchId, String workerId) {
        return shellSpec(AGENT_IMAGE, script, dispatchId, workerId);
    }

    /** The same, of another image that has a shell. */
    public static ContainerSpec shellSpec(String image, String script, String dispatchId, String workerId) {
        return new ContainerSpec(
                image,
                List.of("sh", "-c", script),
                Map.of(),
                null,
                false,
                Map.of(Labels.DISPATCH_ID, dispatchId, Labels.WORKER_ID, workerId),
                64L << 20,
                0,
                64,
                "none",
                null,
                null);
    }

    public static MemorySize mib(long n) {
        return new MemorySize(BigInteger.valueOf(n << 20));
    }

    /** Everything container {@code id} printed, stdout and stderr in the order the engine kept them. */
    public static String output(DockerClients clients, String id) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultCallback.Adapter<Frame> frames = clients.control()
                .logContainerCmd(id)
                .withStdOut(true)
                .withStdErr(true)
                .exec(new ResultCallback.Adapter<>() {
                    @Override
                    public void onNext(Frame frame) {
                        out.writeBytes(frame.getPayload());
                    }
                });
        if (!frames.awaitCompletion(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the log of " + id + " did not end within 30 s");
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    public static DockerClients clients() {
        return DockerClients.connect(dockerConfig());
    }

    /**
     * An image made from the test image, committed as {@code repository:tag}:
     * what the tests that need an image of their own (a hostile one, one with
     * a user or volumes) build it with. The caller removes it.
     */
    public static ImageBuilder image(DockerClients clients, String repository, String tag) {
        return new ImageBuilder(clients, repository, tag);
    }

    /** The test image with entries added and its user, command and volumes set. */
    public static final class ImageBuilder {
        private final DockerClients clients;
        private final String repository;
        private final String tag;
        private final ByteArrayOutputStream tar = new ByteArrayOutputStream();
        private final TarArchiveOutputStream entries = new TarArchiveOutputStream(tar);
        private String user;
        private String[] cmd;
        private final List<Volume> volumes = new ArrayList<>();

        private ImageBuilder(DockerClients clients, String repository, String tag) {
            this.clients = clients;
            this.repository = repository;
            this.tag = tag;
        }

        /** Adds a file at {@code path} (absolute) with this content and mode. */
        public ImageBuilder file(String path, byte[] content, int mode) {
            TarArchiveEntry entry = new TarArchiveEntry(path.replaceFirst("^/+", ""));
            entry.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | mode);
            return entry(entry, content);
        }

        /** Adds an entry of any kind (a directory, a link) with no data. */
        public ImageBuilder entry(TarArchiveEntry header) {
            return entry(header, new byte[0]);
        }

        /** Adds an entry and its data, in the order given; its size is the data's. */
        public ImageBuilder entry(TarArchiveEntry header, byte[] data) {
            header.setSize(data.length);
            try {
                entries.putArchiveEntry(header);
                entries.write(data);
                entries.closeArchiveEntry();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // writing to memory
            }
            return this;
        }

        /** The image's user; the test image's when not set. */
        public ImageBuilder user(String user) {
            this.user = user;
            return this;
        }

        /** The image's command. */
        public ImageBuilder cmd(String... cmd) {
            this.cmd = cmd;
            return this;
        }

        /** Anonymous volumes the image declares. */
        public ImageBuilder volumes(String... paths) {
            for (String path : paths) {
                volumes.add(new Volume(path));
            }
            return this;
        }

        /** Commits the image; its name, {@code repository:tag}. */
        public String build() {
            try {
                entries.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String container = clients.control()
                    .createContainerCmd(AGENT_IMAGE)
                    .withCmd("true")
                    .withNetworkDisabled(true)
                    .exec()
                    .getId();
            try {
                clients.control()
                        .copyArchiveToContainerCmd(container)
                        .withRemotePath("/")
                        .withTarInputStream(new ByteArrayInputStream(tar.toByteArray()))
                        .exec();
                var commit = clients.control()
                        .commitCmd(container)
                        .withRepository(repository)
                        .withTag(tag);
                if (user != null) {
                    commit.withUser(user);
                }
                if (cmd != null) {
                    commit.withCmd(cmd);
                }
                if (!volumes.isEmpty()) {
                    commit.withVolumes(new Volumes(volumes.toArray(Volume[]::new)));
                }
                commit.exec();
                return repository + ":" + tag;
            } finally {
                clients.control().removeContainerCmd(container).withForce(true).exec();
            }
        }
    }

    /**
     * A static program built from {@code source} (relative to the repository)
     * the way the witness is, by scripts/witness.sh: for images built FROM
     * scratch. Fails, saying how to set it up, when no compiler can.
     */
    public static byte[] staticProgram(String source) {
        try {
            Path out = Files.createTempFile(Path.of("target"), "program-", "");
            Process build = new ProcessBuilder("bash", "scripts/witness.sh", out.toString(), source)
                    .redirectErrorStream(true)
                    .start();
            String log = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!build.waitFor(5, TimeUnit.MINUTES) || build.exitValue() != 0) {
                throw new IllegalStateException("scripts/witness.sh could not build " + source
                        + " (it needs musl-gcc, from Debian's musl-tools, or gcc with a static libc): " + log);
            }
            byte[] program = Files.readAllBytes(out);
            Files.delete(out);
            return program;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
