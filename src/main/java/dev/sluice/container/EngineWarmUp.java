package dev.sluice.container;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import com.github.dockerjava.api.command.CreateContainerResponse;
import com.github.dockerjava.api.command.CreateVolumeResponse;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.WaitResponse;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.ContainerPaths;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.OutFile;
import dev.sluice.container.engine.TarEntryReader;
import dev.sluice.container.files.OutArchive;
import dev.sluice.container.files.WitnessKey;
import dev.sluice.container.files.WitnessRecord;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.sandbox.ContainerUser;
import dev.sluice.container.sandbox.HostsFile;

/**
 * Takes the calls of a dispatch's way through the engine once (inspect the
 * image, create, add the out-directory, attach, start, wait, inspect, signal,
 * read the out-directory, stat its /etc/hosts) about an image and a container
 * that do not exist, so the engine refuses each and nothing is created or
 * changed; settles how containers of {@code network: none} are isolated (the
 * engine's version, ADR 0047) and, for bare namespaces, looks up the volume of
 * their /etc/hosts (ADR 0043): the first
 * real dispatch then finds the clients connected and their request and answer
 * mapping loaded, instead of paying for it. The archives the engine would
 * answer with are read from memory. Each call has its client's deadline (ADR
 * 0016); an answer other than "no such image" or "no such container" is
 * thrown.
 */
public final class EngineWarmUp {

    private static final String IMAGE = "sluice.invalid/warm-up:none";

    /** Reads every file a walk offers, as the artifacts' collector does. */
    private static final OutArchive.Visitor READ_ALL = new OutArchive.Visitor() {
        @Override
        public void file(String name, long size, InputStream data) throws IOException {
            if (data != null) {
                data.readAllBytes();
            }
        }

        @Override
        public void refused(String name, OutArchive.Refusal refusal) {}
    };

    private final ContainerRuntime runtime;
    private final DockerClients clients;
    private final Duration callTimeout;

    public EngineWarmUp(ContainerRuntime runtime, DockerClients clients, Duration callTimeout) {
        this.runtime = runtime;
        this.clients = clients;
        this.callTimeout = callTimeout;
    }

    /** @param container a name no container has, nor can be given meanwhile */
    public void run(String container) {
        ContainerSpec spec = new ContainerSpec(
                IMAGE, List.of("true"), Map.of(), null, true, Map.of(), 64L << 20, 0, 64, "none", null, null);
        refused(() -> runtime.image(IMAGE));
        // Should an image of that name exist after all, its container goes at once.
        refused(() -> runtime.remove(runtime.createCommand(
                        spec,
                        ContainerRuntime.ImageFacts.none(),
                        runtime.runAs(spec, ContainerRuntime.ImageFacts.none()),
                        WitnessKey.random())
                .exec()
                .getId()));
        refused(() -> runtime.attach(container, null).close());
        refused(() -> runtime.start(container));
        refusedWait(container);
        if (runtime.inspect(container).isPresent()) {
            throw new IllegalStateException("container " + container + " exists");
        }
        runtime.signal(container, "SIGKILL");
        outDirectory(container);
        if (ContainerPaths.stat(clients, container, HostsFile.TARGET) != null) {
            throw new IllegalStateException("container " + container + " has an /etc/hosts");
        }
        runtime.lookUpHostsFile();
        // Refused calls bring back no answers; the readers of those a dispatch gets are prepared here.
        for (Class<?> answer : List.of(
                InspectImageResponse.class,
                CreateContainerResponse.class,
                CreateVolumeResponse.class,
                WaitResponse.class)) {
            try {
                clients.answers().readValue("{}", answer);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The out-directory's calls, and the reading of the archives a finished dispatch's would give. */
    private void outDirectory(String container) {
        // A numeric user, as every settled one is: its ids go into the archive.
        WitnessKey key = WitnessKey.random();
        refused(() ->
                runtime.outDirectory().prepare(container, Optional.of(new ContainerUser.RunAs(65534, 65534)), key));
        // The check of a witness's record: HMAC-SHA256 and the record's reader.
        WitnessRecord.read("{\"v\":2}".getBytes(StandardCharsets.UTF_8), Optional.of(key));
        if (runtime.readOutFile(container, "report.json", 1024).state() != OutFile.State.ABSENT
                || !runtime.walkOutDirectory(container, "artifacts", 1024, READ_ALL)
                        .complete()) {
            throw new IllegalStateException("container " + container + " has an out-directory");
        }
        byte[] report = tar("report.json", "{}");
        if (TarEntryReader.read(new ByteArrayInputStream(report), "report.json", 1024)
                        .state()
                != OutFile.State.FOUND) {
            throw new IllegalStateException("a report held in memory was not read back");
        }
        if (!OutArchive.walk(new ByteArrayInputStream(tar("artifacts/a.txt", "a")), "artifacts", 4096, READ_ALL)
                .complete()) {
            throw new IllegalStateException("artifacts held in memory were not read back");
        }
    }

    /** An archive of one file, as the engine answers for a path. */
    private static byte[] tar(String name, String content) {
        byte[] data = content.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(data.length);
        return ArchiveUpload.of(entry, data);
    }

    /** The runtime's wait, through a callback that takes the refusal it expects instead of logging it at ERROR. */
    private void refusedWait(String container) {
        RefusedWait wait = clients.streaming().waitContainerCmd(container).exec(new RefusedWait());
        try {
            if (!wait.awaitCompletion(callTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                wait.onComplete();
                throw new IllegalStateException("no answer to a wait within " + callTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
        if (!(wait.refusal instanceof NotFoundException)) {
            throw new IllegalStateException("the wait for " + container + " was not refused: " + wait.refusal);
        }
    }

    private static final class RefusedWait extends WaitContainerResultCallback {

        private volatile Throwable refusal;

        @Override
        public void onError(Throwable e) {
            refusal = e;
            onComplete();
        }
    }

    private static void refused(Runnable call) {
        try {
            call.run();
        } catch (NotFoundException e) {
            // the engine's refusal is the expected answer
        } catch (ContainerException e) {
            if (e.reason() != ContainerException.Reason.NOT_FOUND
                    && e.reason() != ContainerException.Reason.IMAGE_NOT_FOUND) {
                throw e;
            }
        }
    }
}
