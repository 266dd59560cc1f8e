package dev.sluice.actions;

import java.util.HexFormat;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.sluice.hashing.Sha256;

/**
 * What makes two requests "the same body" for idempotency: SHA-256 over the
 * request in a canonical JSON form (keys sorted). Secret values are left out,
 * only their names count, so nothing derived from a secret is stored; a retry
 * with a rotated secret is the same dispatch.
 */
@Singleton
public final class Fingerprint {

    private final ObjectMapper canonical;

    @Inject
    Fingerprint(ObjectMapper json) {
        this.canonical = json.copy()
                .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true);
    }

    public String of(DispatchRequest request) {
        TreeMap<String, String> secretNames = new TreeMap<>();
        if (request.secrets() != null) {
            request.secrets().keySet().forEach(k -> secretNames.put(k, ""));
        }
        DispatchRequest withoutValues = new DispatchRequest(
                request.id(),
                request.image(),
                request.imagePullPolicy(),
                request.command(),
                request.env(),
                request.secrets() == null ? null : secretNames,
                request.input(),
                request.workingDir(),
                request.timeout(),
                request.idleTimeout(),
                request.resources(),
                request.network(),
                request.runtime(),
                request.output(),
                request.callbackUrl(),
                request.callbackMode(),
                request.callbackEncoding(),
                request.metadata(),
                request.workspace(),
                request.maxAttempts());
        try {
            byte[] digest = Sha256.digest().digest(canonical.writeValueAsBytes(withoutValues));
            return HexFormat.of().formatHex(digest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot fingerprint a request", e);
        }
    }
}
