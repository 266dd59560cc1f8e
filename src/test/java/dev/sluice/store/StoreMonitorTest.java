package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.TestStores;

/** A store that answers, one that hangs, and one that hangs past the stall timeout. */
class StoreMonitorTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    private final MutableClock clock = new MutableClock(T0);
    private final ExecutorService prober = Executors.newCachedThreadPool();
    private final HangingDataSource store = new HangingDataSource(TestStores.h2());

    @BeforeEach
    void warmUp() throws SQLException {
        // The first connection loads the database's classes; probes must not pay for it.
        store.getConnection().close();
        store.resetCount();
    }

    @AfterEach
    void close() {
        store.release();
        prober.shutdownNow();
    }

    private StoreMonitor monitor() {
        return new StoreMonitor(store, true, Duration.ofSeconds(1), Duration.ofMinutes(2), prober, clock);
    }

    @Test
    void aStoreThatAnswersIsHealthy() {
        StoreMonitor monitor = monitor();
        assertThat(monitor.last().answering()).isFalse(); // nothing asked yet
        StoreMonitor.Health health = monitor.probe();
        assertThat(health.answering()).isTrue();
        assertThat(health.stalled()).isFalse();
        assertThat(monitor.last()).isEqualTo(health);
    }

    @Test
    void theWorkersMonitorHasAskedTheStoreBeforeAnyoneReadsIt() {
        // Readiness reads the last answer: it must not say "not checked yet" until the first scheduled probe.
        StoreConfig config = new StoreConfig() {
            @Override
            public Duration probeInterval() {
                return Duration.ofHours(1);
            }

            @Override
            public Duration probeTimeout() {
                return Duration.ofSeconds(1);
            }

            @Override
            public Duration stallTimeout() {
                return Duration.ofMinutes(2);
            }
        };
        StoreMonitor monitor = new StoreProducer().storeMonitor(new Database(store, "h2"), config, clock);

        assertThat(monitor.last().answering()).isTrue();
        assertThat(monitor.embedded()).isTrue();
    }

    @Test
    void aHungStoreIsNotAnsweringAtOnceAndStalledOnlyAfterTheTimeout() {
        StoreMonitor monitor = monitor();
        monitor.probe();
        store.hang();

        clock.advance(Duration.ofSeconds(5));
        StoreMonitor.Health hung = monitor.probe();
        assertThat(hung.answering()).isFalse();
        assertThat(hung.stalled()).isFalse();
        assertThat(hung.problem()).contains("did not answer within 1000 ms");

        clock.advance(Duration.ofMinutes(2));
        assertThat(monitor.probe().stalled()).isTrue();
        // Still one probe waiting: a hung store is asked once, not once per round.
        assertThat(store.connectionsAsked()).isEqualTo(2);

        store.release();
        StoreMonitor.Health back = monitor.probe();
        assertThat(back.answering()).isTrue();
        assertThat(back.stalled()).isFalse();
    }

    @Test
    void aStoreThatFailsIsNotAnswering() {
        StoreMonitor monitor = monitor();
        store.fail();
        StoreMonitor.Health failed = monitor.probe();
        assertThat(failed.answering()).isFalse();
        assertThat(failed.problem()).contains("the store failed");
    }

    /** A real database behind a door the test can shut: getConnection hangs (or fails) until it is opened. */
    private static final class HangingDataSource implements DataSource {

        private final DataSource real;
        private final AtomicInteger asked = new AtomicInteger();
        private volatile CountDownLatch door = new CountDownLatch(0);
        private volatile boolean failing;

        HangingDataSource(DataSource real) {
            this.real = real;
        }

        void hang() {
            door = new CountDownLatch(1);
        }

        void release() {
            door.countDown();
        }

        void fail() {
            failing = true;
        }

        int connectionsAsked() {
            return asked.get();
        }

        void resetCount() {
            asked.set(0);
        }

        @Override
        public Connection getConnection() throws SQLException {
            asked.incrementAndGet();
            if (failing) {
                throw new SQLException("connection refused");
            }
            try {
                door.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted");
            }
            return real.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
