package dev.sluice.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Event streams are counted per tenant within the worker's total, and let go one by one (ADR 0054). */
class StreamCountTest {

    @Test
    void aTenantAtItsBoundIsRefusedWhileAnotherIsStillAdmitted() {
        StreamCount count = new StreamCount(5, 2);
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.OPEN);
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.OPEN);
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.TENANT_FULL);
        assertThat(count.admit("b")).isEqualTo(EventHub.Admission.OPEN);

        count.release("a");
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.OPEN);
    }

    @Test
    void theWorkersTotalBoundsAllTenantsTogether() {
        StreamCount count = new StreamCount(3, 2);
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.OPEN);
        assertThat(count.admit("b")).isEqualTo(EventHub.Admission.OPEN);
        assertThat(count.admit("c")).isEqualTo(EventHub.Admission.OPEN);
        assertThat(count.admit("d")).isEqualTo(EventHub.Admission.WORKER_FULL);

        count.release("b");
        // A refusal by the tenant's bound takes no slot of the total with it.
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.OPEN);
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.WORKER_FULL);
        count.release("c");
        assertThat(count.admit("a")).isEqualTo(EventHub.Admission.TENANT_FULL);
        assertThat(count.admit("d")).isEqualTo(EventHub.Admission.OPEN);
    }
}
