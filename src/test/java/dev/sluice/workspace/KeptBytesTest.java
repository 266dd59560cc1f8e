package dev.sluice.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.CallbackUrlPolicy;
import dev.sluice.record.RequestRefused;

/**
 * The workspaces kept until their dispatches end, counted per tenant (ADR
 * 0073): a tenant whose kept workspaces fill its share is refused another,
 * another tenant's is still taken, and bytes come back when a dispatch ends,
 * when a request is refused or replayed, and are counted again at start.
 */
class KeptBytesTest {

    @TempDir
    Path dir;

    private static final WorkspaceRequest ONE_FILE =
            new WorkspaceRequest(List.of(new WorkspaceRequest.File("a.txt", "x".repeat(600), null, null)), null);

    @Test
    void aTenantsKeptWorkspacesFillItsShareAndNoOneElses() throws Exception {
        long size = tarSize();
        KeptBytes kept = new KeptBytes(size * 3, size * 2);
        Workspaces workspaces = workspaces(kept);

        keep(workspaces, "noisy", "noisy.q-1");
        keep(workspaces, "noisy", "noisy.q-2");
        try (Workspaces.Staged third = workspaces.stage(ONE_FILE)) {
            assertThatThrownBy(() -> workspaces.reserve(third, "noisy"))
                    .isInstanceOfSatisfying(RequestRefused.class, e -> {
                        assertThat(e.reason()).isEqualTo(RequestRefused.Reason.WORKSPACES_FULL);
                        assertThat(e.getMessage()).contains("sluice.workspace.max-kept-bytes-per-tenant");
                    });
        }
        keep(workspaces, "quiet", "quiet.q-1");
        try (Workspaces.Staged fourth = workspaces.stage(ONE_FILE)) {
            assertThatThrownBy(() -> workspaces.reserve(fourth, "other"))
                    .isInstanceOfSatisfying(
                            RequestRefused.class,
                            e -> assertThat(e.getMessage()).contains("sluice.workspace.max-kept-bytes "));
        }

        workspaces.ended("noisy.q-1");
        assertThat(kept.held("noisy")).isEqualTo(size);
        assertThat(Files.exists(dir.resolve("noisy.q-1.tar"))).isFalse();
        keep(workspaces, "noisy", "noisy.q-3");
        assertThat(dir.toFile().list()).containsExactlyInAnyOrder("noisy.q-2.tar", "noisy.q-3.tar", "quiet.q-1.tar");
    }

    @Test
    void aWorkspaceNotKeptGivesItsBytesBack() throws Exception {
        KeptBytes kept = new KeptBytes(1 << 20, 1 << 20);
        Workspaces workspaces = workspaces(kept);
        try (Workspaces.Staged refused = workspaces.stage(ONE_FILE)) {
            workspaces.reserve(refused, "noisy");
            assertThat(kept.held("noisy")).isPositive();
        } // the intake refused it, or replayed an earlier one: never kept
        assertThat(kept.held("noisy")).isZero();
        assertThat(dir.toFile().list()).isEmpty();
    }

    @Test
    void workspacesKeptBeforeAStartAreCountedAgain() throws Exception {
        long size = tarSize();
        keep(workspaces(new KeptBytes(size * 4, size * 4)), "noisy", "noisy.q-1");
        KeptBytes afterRestart = new KeptBytes(size * 4, size);
        Workspaces restarted = workspaces(afterRestart);

        assertThat(restarted.sweepTemporaries()).containsExactly("noisy.q-1");
        restarted.stillKept("noisy.q-1");

        assertThat(afterRestart.held("noisy")).isEqualTo(size);
        try (Workspaces.Staged next = restarted.stage(ONE_FILE)) {
            assertThatThrownBy(() -> restarted.reserve(next, "noisy")).isInstanceOf(RequestRefused.class);
        }
        restarted.ended("noisy.q-1");
        assertThat(afterRestart.held("noisy")).isZero();
    }

    private long tarSize() throws Exception {
        Workspaces measuring = workspaces(new KeptBytes(Long.MAX_VALUE, Long.MAX_VALUE));
        keep(measuring, "default", "measure");
        long size = Files.size(dir.resolve("measure.tar"));
        measuring.ended("measure");
        return size;
    }

    private static void keep(Workspaces workspaces, String tenant, String key) {
        try (Workspaces.Staged staged = workspaces.stage(ONE_FILE)) {
            workspaces.reserve(staged, tenant);
            workspaces.keep(staged, key);
        }
    }

    private Workspaces workspaces(KeptBytes kept) {
        return new Workspaces(
                new WorkspaceLimits(64 * 1024, 20, 100),
                new WorkspaceFiles(dir),
                new CallbackUrlPolicy(new AddressPolicy(List.of())),
                null,
                kept);
    }
}
