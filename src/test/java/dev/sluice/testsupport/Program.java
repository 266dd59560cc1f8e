package dev.sluice.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.awaitility.Awaitility;

/**
 * An outside program run to its end (kubectl, and Node with the tools other
 * ecosystems ship): its exit code and everything it printed.
 */
public final class Program {

    /** Where the Node scripts and their packages live (scripts/test.sh runs npm ci there). */
    public static final Path NODE_DIR = Path.of("src/test/node");

    /** How one run ended: the exit code, standard output and standard error. */
    public record Result(int exitCode, String stdout, String stderr) {

        /** Everything the program printed, for assertions and failure messages. */
        public String output() {
            return stdout + stderr;
        }
    }

    private Program() {}

    /** Runs {@code command}, feeding it {@code input}, and fails the test if it takes longer than {@code within}. */
    public static Result run(String input, Duration within, String... command) {
        try {
            Path out = Files.createTempFile(Path.of("target"), "program-", ".out");
            Path err = Files.createTempFile(Path.of("target"), "program-", ".err");
            Process process = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + within);
            }
            Result result = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new AssertionError("could not run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Runs one of the Node scripts in {@link #NODE_DIR} with its arguments. */
    public static Result node(String input, String script, String... args) {
        return node(Duration.ofSeconds(60), input, script, args);
    }

    /** Runs one of the Node scripts, for a script that runs containers and so may take longer on a busy machine. */
    public static Result node(Duration within, String input, String script, String... args) {
        requireNodeModules();
        List<String> command =
                new ArrayList<>(List.of("node", NODE_DIR.resolve(script).toString()));
        command.addAll(List.of(args));
        return run(input, within, command.toArray(String[]::new));
    }

    /** Starts one of the Node scripts and returns while it runs, its standard output read line by line. */
    public static Running startNode(String script, String... args) {
        return startNode(Map.of(), script, args);
    }

    /** As {@link #startNode(String, String...)}, with these variables added to its environment. */
    public static Running startNode(Map<String, String> env, String script, String... args) {
        requireNodeModules();
        List<String> command =
                new ArrayList<>(List.of("node", NODE_DIR.resolve(script).toString()));
        command.addAll(List.of(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
            builder.environment().putAll(env);
            return new Running(builder.start());
        } catch (IOException e) {
            throw new AssertionError("could not run " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
    }

    private static void requireNodeModules() {
        if (!Files.isDirectory(NODE_DIR.resolve("node_modules"))) {
            throw new AssertionError(
                    NODE_DIR + "/node_modules is missing: run npm ci there (scripts/test.sh does it before the tests)");
        }
    }

    /** A program still running: the lines it printed so far, waited on without a clock of the test's own. */
    public static final class Running implements AutoCloseable {

        private final Process process;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final Thread reader;

        private Running(Process process) {
            this.process = process;
            this.reader = new Thread(() -> {
                try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the process went away: what it printed is kept
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        public List<String> lines() {
            return List.copyOf(lines);
        }

        /** Waits until a line printed so far satisfies {@code wanted}, failing after {@code within}. */
        public void awaitLine(Predicate<String> wanted, Duration within) {
            Awaitility.await()
                    .atMost(within)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> lines.stream().anyMatch(wanted));
        }

        /** Waits for the program to exit on its own, and returns its exit code. */
        public int awaitExit(Duration within) {
            try {
                if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("the program did not finish within " + within + "; it printed " + lines);
                }
                reader.join(Duration.ofSeconds(10).toMillis()); // it may still be taking the last lines
                return process.exitValue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        @Override
        public void close() {
            process.destroy();
        }
    }
}
