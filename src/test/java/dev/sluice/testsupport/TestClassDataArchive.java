package dev.sluice.testsupport;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The AppCDS archive test workers start with: written once per build of the
 * jar by the training run the image and scripts/worker.sh use
 * (deploy/appcds-training.sh, ADR 0048), into a file of the tests' own, so
 * ClassDataArchiveIT, which ages and rewrites the shipped archive, is never
 * raced. Test JVMs side by side share it; a file lock lets one of them write
 * it while the other waits. A training run that fails leaves the workers to
 * start without an archive, only slower.
 */
final class TestClassDataArchive {

    private static final Path JAR = Path.of("target/sluice-runner.jar");
    private static final Path ARCHIVE = Path.of("target/test-app-cds.jsa");
    private static final Path LOCK = Path.of("target/test-app-cds.lock");
    private static final long TRAINING_SECONDS = 120;

    /** The jar does not change while tests run: one look (and at most one training) per test JVM. */
    private static Optional<String> option;

    private TestClassDataArchive() {}

    /** {@code -XX:SharedArchiveFile=...} for this build of the jar, written first when missing or stale. */
    static synchronized Optional<String> option() {
        if (option == null) {
            option = prepare();
        }
        return option;
    }

    private static Optional<String> prepare() {
        try (FileChannel channel = FileChannel.open(LOCK, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = channel.lock()) {
            if (!current() && !train()) {
                return Optional.empty();
            }
            return Optional.of("-XX:SharedArchiveFile=" + ARCHIVE);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean current() throws IOException {
        return Files.exists(ARCHIVE)
                && Files.size(ARCHIVE) > 0
                && Files.getLastModifiedTime(ARCHIVE).compareTo(Files.getLastModifiedTime(JAR)) > 0;
    }

    private static boolean train() throws IOException {
        Path log = Files.createTempFile(Path.of("target"), "test-app-cds-", ".log");
        ProcessBuilder training = new ProcessBuilder(
                        "bash", "deploy/appcds-training.sh", ARCHIVE.toString(), JAR.toString(), "deploy/jvm.options")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // The training runs on the java of the test JVM, as the workers it serves do.
        Path bin = Path.of(WorkerProcess.javaBinary()).getParent();
        training.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
        try {
            Process p = training.start();
            if (!p.waitFor(TRAINING_SECONDS, TimeUnit.SECONDS)) {
                // The script's JVM as well as the script: killing bash alone left it running.
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0 && Files.exists(ARCHIVE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
