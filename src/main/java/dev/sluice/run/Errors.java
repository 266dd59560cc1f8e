package dev.sluice.run;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.output.StreamWitness;
import dev.sluice.record.DispatchResult;

/** The errors a result can carry: stable codes for programs, messages for people. */
final class Errors {

    private Errors() {}

    static final DispatchResult.Error SECRETS_UNAVAILABLE = new DispatchResult.Error(
            "secrets_unavailable",
            "the worker restarted while holding this dispatch, and secret values are never stored: it could not be "
                    + "run, or its output could not be masked");

    static final DispatchResult.Error CONTAINER_LOST = new DispatchResult.Error(
            "container_lost",
            "the container of this dispatch is gone from the engine (the engine restarted or it was removed)");

    static final DispatchResult.Error WORKER_LOST = new DispatchResult.Error(
            "worker_lost",
            "the worker running this dispatch stopped renewing its lease; its container ran on that worker's engine");

    static final DispatchResult.Error QUEUE_TIMEOUT = new DispatchResult.Error(
            "queue_timeout", "the dispatch waited in the queue past the worker's limit without starting");

    static final DispatchResult.Error WORKER_ERROR =
            new DispatchResult.Error("worker_error", "the worker failed while running this dispatch");

    static final DispatchResult.Error IDLE = new DispatchResult.Error(
            "idle", "the container printed nothing on either stream for its idleTimeout, and was stopped");

    static final DispatchResult.Error OUT_OF_MEMORY =
            new DispatchResult.Error("out_of_memory", "the container was killed for exceeding its memory limit");

    /** The workspace could not be placed: its archive could not be fetched or was refused (ADR 0060). */
    static DispatchResult.Error workspaceUnavailable(String why) {
        return new DispatchResult.Error("workspace_unavailable", "the workspace could not be placed: " + why);
    }

    /**
     * The witness could not run the command: what an engine without it refuses
     * at the start (ADR 0045). The witness gives the system's errno alone, and
     * the message is the worker's for it (ADR 0070): no text from inside the
     * container becomes the worker's words.
     */
    static DispatchResult.Error execFailed(int errno) {
        return new DispatchResult.Error(
                "exec_failed", "the container started, but its command could not be run: " + execFailure(errno));
    }

    /** Linux's errno values (the same on every architecture for these) as execve(2) gives them. */
    private static String execFailure(int errno) {
        return switch (errno) {
            case 1 -> "the system did not permit it (EPERM)";
            case 2 -> "no such file: the command is not in the image, or not on its PATH (ENOENT)";
            case 7 -> "its arguments and environment are too long (E2BIG)";
            case 8 ->
                "it is not a program this system can run: a script without #!, or another architecture's"
                        + " (ENOEXEC)";
            case 12 -> "there was not enough memory to start it (ENOMEM)";
            case 13 ->
                "permission denied: it is not executable, or a directory, or on a filesystem mounted noexec"
                        + " (EACCES)";
            case 20 -> "a part of its path is not a directory (ENOTDIR)";
            case 26 -> "its file is open for writing (ETXTBSY)";
            case 36 -> "its path is too long (ENAMETOOLONG)";
            case 40 -> "its path has too many symbolic links (ELOOP)";
            default -> "the system refused to run it (errno " + errno + ")";
        };
    }

    /** The witness showed bytes the process wrote missing from the result (ADR 0045). */
    static DispatchResult.Error outputIncomplete(String exited, StreamWitness stdout, StreamWitness stderr) {
        StringBuilder message = new StringBuilder("the process ").append(exited).append(", but ");
        String sep = "";
        for (StreamWitness w : new StreamWitness[] {stdout, stderr}) {
            if (w != null && w.incomplete()) {
                message.append(sep)
                        .append(w == stdout ? "stdout" : "stderr")
                        .append(" is incomplete: ")
                        .append(w.detail());
                sep = "; and ";
            }
        }
        return new DispatchResult.Error("output_incomplete", message.toString());
    }

    /** What the engine refused or failed at, in the engine's own short words. */
    static DispatchResult.Error of(ContainerException e) {
        return new DispatchResult.Error(e.reason().code(), e.getMessage());
    }
}
