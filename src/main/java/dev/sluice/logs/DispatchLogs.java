package dev.sluice.logs;

import java.io.IOException;
import java.io.InputStream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import dev.sluice.container.ContainerLogs;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.io.LogRange;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.RequestRefused;
import dev.sluice.record.SecretVault;
import dev.sluice.record.StoredResult;

/**
 * A dispatch's full streams, read back from the container runtime by byte
 * range and masked like its result. A log that can no longer be masked (the
 * worker restarted and lost the secrets) is not served at all. Offsets are
 * absolute stream offsets: where the runtime's copy no longer begins at the
 * stream's first byte, the result says where it begins, and a range before
 * that is refused (ADR 0032).
 */
public class DispatchLogs {

    private static final JsonFactory JSON = new JsonFactory();

    private final DispatchQueries queries;
    private final SecretVault vault;
    private final ContainerLogs logs;
    private final LogHolding holding;

    public DispatchLogs(DispatchQueries queries, SecretVault vault, ContainerLogs logs, LogHolding holding) {
        this.queries = queries;
        this.vault = vault;
        this.logs = logs;
        this.holding = holding;
    }

    /**
     * The range of {@code limit} bytes from {@code offset}: its length and end
     * are counted now, its bytes written when the caller writes it, from the
     * runtime's log as it sends them (ADR 0054).
     */
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
        String container = dispatch.containerId();
        try {
            long first = availableFrom(dispatch).forStream(stdout);
            if (offset < first) {
                throw new LogRotated(offset, first);
            }
            ContainerLogs.Span span = logs.span(container, stdout, first, offset, limit);
            return new LogRange(offset, span.length(), span.endOfLog(), out -> {
                try {
                    logs.copy(container, stdout, first, offset, span.length(), masker, out);
                } catch (ContainerException e) {
                    throw refused(id, masker, e);
                }
            });
        } catch (ContainerException e) {
            throw refused(id, masker, e);
        }
    }

    private static RequestRefused refused(String id, SecretMasker masker, ContainerException e) {
        if (e.reason() == ContainerException.Reason.NOT_FOUND) {
            return new RequestRefused(
                    RequestRefused.Reason.LOG_GONE,
                    "the container of dispatch " + DispatchKey.idOf(id) + " was removed, and its log with it");
        }
        return new RequestRefused(
                RequestRefused.Reason.ENGINE_UNAVAILABLE, "the log could not be read: " + masker.mask(e.getMessage()));
    }

    /** As the result says; for a dispatch still running, or one whose result could not tell, proven whole or refused. */
    private DispatchResult.AvailableFrom availableFrom(Dispatch dispatch) {
        DispatchResult.AvailableFrom stored = dispatch.result() == null ? null : stored(dispatch.result());
        if (stored != null) {
            return stored;
        }
        DispatchResult.AvailableFrom probed = holding.probe(dispatch.containerId());
        if (probed == null) {
            throw new RequestRefused(
                    RequestRefused.Reason.LOG_START_UNKNOWN,
                    dispatch.status().terminal()
                            ? "the runtime's log of dispatch " + dispatch.id()
                                    + " may have lost its beginning and the worker could not tell where it "
                                    + "begins, so offsets in it cannot be placed"
                            : "the log of dispatch " + dispatch.id()
                                    + " has grown past what can be proven whole while it runs; where it "
                                    + "begins is known once the dispatch finished");
        }
        return probed;
    }

    /**
     * {@code logs.availableFrom} of a stored result, read without building the
     * result: its bounded streams come first and are skipped, not kept.
     */
    static DispatchResult.AvailableFrom stored(StoredResult result) {
        try (InputStream in = result.open();
                JsonParser json = JSON.createParser(in)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            if (!enter(json, "logs") || !enter(json, "availableFrom")) {
                return null;
            }
            long stdout = -1;
            long stderr = -1;
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                json.nextToken();
                if (name.equals("stdout")) {
                    stdout = json.getLongValue();
                } else if (name.equals("stderr")) {
                    stderr = json.getLongValue();
                } else {
                    json.skipChildren();
                }
            }
            return stdout < 0 || stderr < 0 ? null : new DispatchResult.AvailableFrom(stdout, stderr);
        } catch (IOException e) {
            throw RequestRefused.storeUnavailable();
        }
    }

    /** Moves into the object held by {@code field} of the current object; false when there is none. */
    private static boolean enter(JsonParser json, String field) throws IOException {
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            JsonToken value = json.nextToken();
            if (name.equals(field)) {
                return value == JsonToken.START_OBJECT;
            }
            json.skipChildren();
        }
        return false;
    }
}
