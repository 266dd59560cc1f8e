package dev.sluice.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A pool shared by tenants (ADR 0073): a total for all, a share for each, counted in the pool's own unit. */
class SharedPoolTest {

    @Test
    void aTenantTakesItsShareAndNoMoreWhileOthersTakeTheRest() {
        SharedPool pool = new SharedPool(32, 16);
        for (int i = 0; i < 16; i++) {
            assertThat(pool.take("noisy", 1)).isEqualTo(SharedPool.Taken.TAKEN);
        }
        assertThat(pool.take("noisy", 1)).isEqualTo(SharedPool.Taken.SHARE_FULL);
        assertThat(pool.room("noisy")).isZero();
        assertThat(pool.room("quiet")).isEqualTo(16);
        for (int i = 0; i < 16; i++) {
            assertThat(pool.take("quiet", 1)).isEqualTo(SharedPool.Taken.TAKEN);
        }
        assertThat(pool.take("third", 1)).isEqualTo(SharedPool.Taken.POOL_FULL);
        assertThat(pool.inUse()).isEqualTo(32);

        pool.give("noisy", 1);
        assertThat(pool.take("third", 1)).isEqualTo(SharedPool.Taken.TAKEN);
        assertThat(pool.take("noisy", 1)).isEqualTo(SharedPool.Taken.POOL_FULL);
    }

    @Test
    void amountsAreWhatTheyCountBytesForOne() {
        SharedPool bytes = new SharedPool(4L << 30, 1L << 30);
        assertThat(bytes.take("noisy", 8L << 20)).isEqualTo(SharedPool.Taken.TAKEN);
        assertThat(bytes.take("noisy", 1L << 30)).isEqualTo(SharedPool.Taken.SHARE_FULL);
        assertThat(bytes.held("noisy")).isEqualTo(8L << 20);
        assertThat(bytes.room("noisy")).isEqualTo((1L << 30) - (8L << 20));

        bytes.give("noisy", 8L << 20);
        assertThat(bytes.held("noisy")).isZero();
        assertThat(bytes.inUse()).isZero();
    }

    @Test
    void aShareLargerThanThePoolIsThePool() {
        SharedPool pool = new SharedPool(2, 5);
        assertThat(pool.share()).isEqualTo(2);
        assertThat(pool.take("one", 2)).isEqualTo(SharedPool.Taken.TAKEN);
        assertThat(pool.take("one", 1))
                .as("the total, when both would be passed")
                .isEqualTo(SharedPool.Taken.POOL_FULL);
    }

    @Test
    void givingBackWhatWasNotTakenIsABug() {
        SharedPool pool = new SharedPool(2, 1);
        pool.take("one", 1);
        assertThatThrownBy(() -> pool.give("one", 2)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new SharedPool(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
