package dev.sluice.record;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.sluice.output.SecretMasker;

/**
 * Secret values of dispatches, in memory only, so that captured output and
 * log reads can be masked. They are never stored: after a restart a dispatch's
 * secrets are gone, and its logs can no longer be served (they could not be
 * masked).
 */
public final class SecretVault {

    private final Map<String, SecretMasker> maskers = new ConcurrentHashMap<>();
    private final int minPart;

    /** @param minPart the smallest secret the worker accepts: the shortest part of one masked on its own */
    public SecretVault(int minPart) {
        this.minPart = minPart;
    }

    public void put(String dispatchId, Map<String, String> secrets) {
        if (secrets != null && !secrets.isEmpty()) {
            maskers.put(dispatchId, new SecretMasker(secrets.values(), minPart));
        }
    }

    /** The masker for a dispatch; empty when it had secrets this worker no longer holds. */
    public Optional<SecretMasker> masker(Dispatch dispatch) {
        if (!dispatch.hasSecrets()) {
            return Optional.of(SecretMasker.NONE);
        }
        return Optional.ofNullable(maskers.get(dispatch.id()));
    }

    public SecretMasker maskerFor(String dispatchId) {
        return maskers.getOrDefault(dispatchId, SecretMasker.NONE);
    }

    public void forget(String dispatchId) {
        maskers.remove(dispatchId);
    }
}
