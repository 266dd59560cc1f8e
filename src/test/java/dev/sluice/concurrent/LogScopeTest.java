package dev.sluice.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LogScopeTest {

    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static Object id() {
        return MDC.get(LogScope.DISPATCH_ID);
    }

    @Test
    void aScopeNamesTheDispatchUntilItCloses() {
        try (LogScope scope = LogScope.dispatch("d-1")) {
            assertThat(id()).isEqualTo("d-1");
        }
        assertThat(id()).isNull();
    }

    @Test
    void anInnerScopeGivesBackTheOuterOne() {
        try (LogScope outer = LogScope.dispatch("d-1")) {
            try (LogScope inner = LogScope.dispatch("d-2")) {
                assertThat(id()).isEqualTo("d-2");
            }
            assertThat(id()).isEqualTo("d-1");
        }
        assertThat(id()).isNull();
    }

    @Test
    void aPooledThreadKeepsNoIdPastTheWorkItRan() throws Exception {
        pool.submit(LogScope.wrap("d-1", () -> assertThat(id()).isEqualTo("d-1")))
                .get(10, TimeUnit.SECONDS);
        var failed = pool.submit(LogScope.wrap("d-2", () -> {
            throw new IllegalStateException("work that fails");
        }));
        assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);

        assertThat(pool.submit(LogScopeTest::id).get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void workHandedOnKeepsTheScopeItWasHandedFrom() throws Exception {
        Runnable outside = LogScope.carried(() -> assertThat(id()).isNull());
        Runnable inside;
        try (LogScope scope = LogScope.dispatch("d-1")) {
            inside = LogScope.carried(() -> assertThat(id()).isEqualTo("d-1"));
        }
        pool.submit(inside).get(10, TimeUnit.SECONDS);
        pool.submit(outside).get(10, TimeUnit.SECONDS);
        assertThat(pool.submit(LogScopeTest::id).get(10, TimeUnit.SECONDS)).isNull();
    }
}
