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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;

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
     * A new image: the test agent image with {@code files} added (absolute
     * path to content, each mode 0755), committed as {@code repository:tag}.
     * The caller removes it.
     */
    public static String imageWith(DockerClients clients, String repository, String tag, Map<String, byte[]> files) {
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(tar)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                TarArchiveEntry entry = new TarArchiveEntry(file.getKey().replaceFirst("^/+", ""));
                entry.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | 0755);
                entry.setSize(file.getValue().length);
                out.putArchiveEntry(entry);
                out.write(file.getValue());
                out.closeArchiveEntry();
            }
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
            clients.control()
                    .commitCmd(container)
                    .withRepository(repository)
                    .withTag(tag)
                    .exec();
            return repository + ":" + tag;
        } finally {
            clients.control().removeContainerCmd(container).withForce(true).exec();
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
