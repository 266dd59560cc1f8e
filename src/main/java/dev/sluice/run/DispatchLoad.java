package dev.sluice.run;

/** What this worker has in hand now; read without waiting on the engine or the store. */
public interface DispatchLoad {

    /** Dispatches holding a run slot (taken-over ones included). */
    int running();

    /** Dispatches waiting for a slot. */
    int queued();
}
