package dev.sluice.container.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.container.sandbox.ContainerUser;

/**
 * The output witness (ADR 0045): a small static program of the worker's own
 * ({@code src/main/c/witness.c}), put beside the out-directory on the
 * container's volume and made the container's entrypoint. It runs the
 * dispatch's command as its child and relays the child's stdout and stderr to
 * the engine, counting and hashing every byte and keeping each stream's last
 * {@link #TAIL_BYTES}. When the child has exited it waits until the engine has
 * read what it relayed (the pipe's unread count), so the engine's short wait
 * at the exit finds nothing left to drop, and then leaves its record in the
 * out-directory. The worker sets what it received against that record.
 *
 * <p>Its record counts only because the command could not have written it
 * (ADR 0070): each container gets a key of its own ({@link WitnessKey}),
 * placed beside the record's directory for the witness alone to read and
 * remove before the command exists, and the witness authenticates its record
 * under it. The witness is the container's init, PID 1, and makes itself
 * non-dumpable, so a command of the same user cannot trace it, read its
 * memory or its descriptors, or kill it (where the runtime keeps those rules).
 *
 * <p>It needs the out-directory: without it, or turned off, containers run as
 * they would without it, and results say their streams were not witnessed.
 */
public final class Witness {

    /** Where the build puts the program, on the worker's class path. */
    static final String RESOURCE = "sluice-witness";

    /** How much of each stream's end the witness keeps: more than the engine's pipes and buffers hold. */
    static final int TAIL_BYTES = 256 * 1024;

    /** The directory of its record, inside the out-directory. */
    static final String RECORD_DIR = ".sluice-witness";

    /** The program's name in the volume, beside the out-directory. */
    private static final String PROGRAM = "witness";

    /** The key's file, in the record's directory until the witness has read and removed it. */
    private static final String KEY = "key";

    private final byte[] program;
    private final String off;
    private final String path;
    private final String recordDir;
    private final long drainMillis;

    private Witness(byte[] program, String off, String volumeRoot, String outDir, long drainMillis) {
        this.program = program;
        this.off = off;
        this.path = volumeRoot + "/" + PROGRAM;
        this.recordDir = outDir + "/" + RECORD_DIR;
        this.drainMillis = drainMillis;
    }

    /** The witness as configured: off without the out-directory, when turned off, or missing from this build. */
    static Witness of(ContainerConfig config, String volumeRoot) {
        long drain = config.witnessDrainTimeout().toMillis();
        if (!config.outDirEnabled()) {
            return new Witness(null, "the out-directory is turned off", volumeRoot, config.outDir(), drain);
        }
        if (!config.witnessEnabled()) {
            return new Witness(null, "the witness is turned off", volumeRoot, config.outDir(), drain);
        }
        byte[] program = load();
        return program == null
                ? new Witness(
                        null, "this build of the worker has no witness program", volumeRoot, config.outDir(), drain)
                : new Witness(program, null, volumeRoot, config.outDir(), drain);
    }

    private static byte[] load() {
        try (InputStream in = Witness.class.getResourceAsStream(RESOURCE)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the witness program from the class path", e);
        }
    }

    public boolean on() {
        return program != null;
    }

    /** Why containers run without the witness; {@code null} when they run with it. */
    String off() {
        return off;
    }

    /**
     * The entrypoint that runs {@code command} (the image's entrypoint and
     * the dispatch's or image's command, as the engine would join them) under
     * the witness.
     */
    public List<String> wrap(List<String> command) {
        List<String> entrypoint = new ArrayList<>(command.size() + 10);
        entrypoint.addAll(List.of(
                path,
                "--record",
                recordDir,
                "--key",
                recordDir + "/" + KEY,
                "--drain-ms",
                Long.toString(drainMillis),
                "--tail",
                Integer.toString(TAIL_BYTES),
                "--"));
        entrypoint.addAll(command);
        return entrypoint;
    }

    /**
     * The program and the container's key, for the volume's upload below the
     * out-directory {@code outDir}: the program root's, readable and runnable
     * by every user; the record's directory and the key the container's user's,
     * for it alone. When the user is not known in numbers (the image's is kept
     * as it is) they are open to every user: nothing but the witness runs
     * before the key is gone. A container created without a key (by an
     * earlier release, started again after an upgrade) gets the program
     * alone: its command names no key, and its record vouches for nothing.
     */
    List<ArchiveUpload.Entry> entries(String outDir, WitnessKey key, Optional<ContainerUser.RunAs> user) {
        TarArchiveEntry binary = new TarArchiveEntry(PROGRAM);
        binary.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | 0555);
        binary.setSize(program.length);
        if (key == null) {
            return List.of(new ArchiveUpload.Entry(binary, program));
        }
        TarArchiveEntry dir = new TarArchiveEntry(outDir + "/" + RECORD_DIR + "/");
        dir.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~0777 | (user.isPresent() ? 0700 : 0777));
        byte[] keyBytes = key.bytes();
        TarArchiveEntry keyFile = new TarArchiveEntry(outDir + "/" + RECORD_DIR + "/" + KEY);
        keyFile.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~0777 | (user.isPresent() ? 0400 : 0444));
        keyFile.setSize(keyBytes.length);
        user.ifPresent(u -> {
            for (TarArchiveEntry owned : List.of(dir, keyFile)) {
                owned.setUserId(u.uid());
                owned.setGroupId(u.gid());
            }
        });
        return List.of(
                new ArchiveUpload.Entry(binary, program),
                new ArchiveUpload.Entry(dir, new byte[0]),
                new ArchiveUpload.Entry(keyFile, keyBytes));
    }

    /** The record's file, relative to the out-directory. */
    static String recordFile() {
        return RECORD_DIR + "/record.json";
    }

    /** A stream's tail file, relative to the out-directory. */
    static String tailFile(boolean stdout) {
        return RECORD_DIR + (stdout ? "/stdout.tail" : "/stderr.tail");
    }
}
