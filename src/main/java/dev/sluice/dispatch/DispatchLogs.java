package dev.sluice.dispatch;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerLogs;
import dev.sluice.output.SecretMasker;

/**
 * A dispatch's full streams, read back from the container runtime by byte
 * range and masked like its result. A log that can no longer be masked (the
 * worker restarted and lost the secrets) is not served at all.
 */
public class DispatchLogs {

    private final DispatchQueries queries;
    private final SecretVault vault;
    private final ContainerLogs logs;

    DispatchLogs(DispatchQueries queries, SecretVault vault, ContainerLogs logs) {
        this.queries = queries;
        this.vault = vault;
        this.logs = logs;
    }

    public LogRange read(String id, boolean stdout, long offset, int limit) {
        Dispatch dispatch = queries.get(id);
        if (dispatch.containerId() == null) {
            throw new RequestRefused(
                    RequestRefused.Reason.LOG_GONE, "dispatch " + id + " has no container, so there is no log to read");
        }
        SecretMasker masker = vault.masker(dispatch)
                .orElseThrow(() -> new RequestRefused(
                        RequestRefused.Reason.LOG_UNMASKABLE,
                        "the log of dispatch " + id
                                + " holds secrets this worker no longer has (it restarted), so it cannot "
                                + "be masked and is not served"));
        try {
            ContainerLogs.Range range = logs.read(dispatch.containerId(), stdout, offset, limit, masker);
            return new LogRange(range.bytes(), range.offset(), range.endOfLog());
        } catch (ContainerException e) {
            if (e.reason() == ContainerException.Reason.NOT_FOUND) {
                throw new RequestRefused(
                        RequestRefused.Reason.LOG_GONE,
                        "the container of dispatch " + id + " was removed, and its log with it");
            }
            throw new RequestRefused(
                    RequestRefused.Reason.ENGINE_UNAVAILABLE,
                    "the log could not be read: " + masker.mask(e.getMessage()));
        }
    }
}
