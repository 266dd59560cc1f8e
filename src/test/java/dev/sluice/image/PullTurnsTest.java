package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Whose pull starts next (ADR 0073), with synthetic images and tenants: the
 * pulls running at once, a tenant's share of them, turns taken by the tenant
 * whose pull started least recently, and a pull of one image shared by
 * whoever asks for it.
 */
class PullTurnsTest {

    private final PullTurns turns = new PullTurns(2, 1);

    @Test
    void aTenantWhosePullsStallHoldsItsShareAndAnotherTenantsPullStartsAtOnce() {
        assertThat(turns.ask("stall/a", "noisy")).containsExactly(new PullTurns.Start("stall/a", "noisy"));
        assertThat(turns.ask("stall/b", "noisy"))
                .as("past noisy's share: it waits")
                .isEmpty();
        assertThat(turns.ask("stall/c", "noisy")).isEmpty();

        assertThat(turns.ask("registry/agent", "quiet"))
                .containsExactly(new PullTurns.Start("registry/agent", "quiet"));
        assertThat(turns.waiting()).isEqualTo(2);

        // noisy's next starts only when one of its own ends, in the order it asked
        assertThat(turns.ended("registry/agent")).isEmpty();
        assertThat(turns.ended("stall/a")).containsExactly(new PullTurns.Start("stall/b", "noisy"));
    }

    @Test
    void tenantsTakeTurnsTheLeastRecentlyStartedFirst() {
        PullTurns wide = new PullTurns(1, 1);
        assertThat(wide.ask("a/1", "alpha")).extracting(PullTurns.Start::key).containsExactly("a/1");
        wide.ask("a/2", "alpha");
        wide.ask("a/3", "alpha");
        wide.ask("b/1", "beta");
        wide.ask("c/1", "gamma");

        assertThat(wide.ended("a/1")).extracting(PullTurns.Start::key).containsExactly("b/1");
        assertThat(wide.ended("b/1")).extracting(PullTurns.Start::key).containsExactly("c/1");
        assertThat(wide.ended("c/1")).extracting(PullTurns.Start::key).containsExactly("a/2");
        assertThat(wide.ask("b/2", "beta")).isEmpty();
        assertThat(wide.ended("a/2")).extracting(PullTurns.Start::key).containsExactly("b/2");
        assertThat(wide.ended("b/2")).extracting(PullTurns.Start::key).containsExactly("a/3");
    }

    @Test
    void anImageAskedForByTwoTenantsIsPulledOnceOnTheFirstTurnThatComes() {
        PullTurns one = new PullTurns(1, 1);
        one.ask("x/running", "alpha");
        one.ask("a/1", "alpha");
        one.ask("shared", "alpha"); // behind alpha's a/1
        assertThat(one.ask("shared", "beta")).isEmpty(); // beta's turn comes first: beta started nothing yet

        List<PullTurns.Start> next = one.ended("x/running");
        assertThat(next).containsExactly(new PullTurns.Start("shared", "beta"));
        assertThat(one.chargedTo("shared")).isEqualTo("beta");
        assertThat(one.ask("shared", "gamma"))
                .as("running: gamma waits for it at no charge")
                .isEmpty();

        assertThat(one.ended("shared")).extracting(PullTurns.Start::key).containsExactly("a/1");
        assertThat(one.ended("a/1"))
                .as("shared was pulled once; alpha's turn for it is gone")
                .isEmpty();
        assertThat(one.waiting()).isZero();
    }

    @Test
    void anImageAskedForAfterItsPullEndedIsPulledAgain() {
        turns.ask("img", "alpha");
        turns.ended("img");
        assertThat(turns.ask("img", "alpha")).containsExactly(new PullTurns.Start("img", "alpha"));
    }
}
