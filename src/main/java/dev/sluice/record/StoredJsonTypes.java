package dev.sluice.record;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The types the store keeps as JSON (through store.JsonColumns): a
 * dispatch's spec, its summary, and its result, whose JSON is also the
 * callback's body. Quarkus registers for reflection only what the REST
 * resources' signatures name; a native executable needs these registered to
 * read and write them (ADR 0019).
 */
@RegisterForReflection(
        targets = {DispatchSpec.class, DispatchSummary.class, DispatchResult.class},
        registerFullHierarchy = true)
final class StoredJsonTypes {

    private StoredJsonTypes() {}
}
