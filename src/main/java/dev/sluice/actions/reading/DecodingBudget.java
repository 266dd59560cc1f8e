package dev.sluice.actions.reading;

import dev.sluice.concurrent.SharedPool;

/**
 * The bytes of request bodies being read at once, bounded for the worker
 * ({@code sluice.api.max-decoding-bytes}) and for each tenant
 * ({@code sluice.api.max-decoding-bytes-per-tenant}) (ADR 0076). A body is
 * charged its length from before its first byte is read (the most a body
 * may be while one that declares none is read), and at least {@link BodyLimits#TOKEN_BYTES}
 * for each token it turns out to hold, until its answer is sent: the bytes
 * and the objects they become are the request's until then. Past either
 * bound it is refused at once, 429, and nothing waits: one tenant's large
 * bodies cannot take the heap, nor the others' share of it.
 */
public final class DecodingBudget {

    /** Where a door keeps the grant of the request it serves. */
    public static final String CONTEXT_KEY = "sluice.decoding-grant";

    /** What a body is charged for while it is read and until it is answered. */
    public interface Grant extends AutoCloseable {

        /** Charges at least {@code bytes} in all, or refuses the body ({@link BodyRefused.Kind#BUSY}). */
        void atLeast(long bytes);

        /**
         * Charges {@code bytes} in all, giving back what was charged beyond: a
         * body of unknown length, charged the most a body may be while it was
         * read, once it is read whole.
         */
        void settle(long bytes);

        /** Gives back everything charged; again changes nothing. */
        @Override
        void close();
    }

    /** A grant that charges nothing: for a body already charged, or read by the worker itself. */
    public static final Grant NONE = new Grant() {
        @Override
        public void atLeast(long bytes) {}

        @Override
        public void settle(long bytes) {}

        @Override
        public void close() {}
    };

    private final SharedPool pool;

    public DecodingBudget(long total, long perTenant) {
        this.pool = new SharedPool(total, perTenant);
    }

    /** A grant of {@code bytes} to a body of {@code tenant}'s, or the refusal when either bound has no room. */
    public Grant take(String tenant, long bytes) {
        Charged grant = new Charged(tenant);
        grant.atLeast(bytes);
        return grant;
    }

    /** Bytes charged now, to the worker and to {@code tenant}. */
    long used() {
        return pool.inUse();
    }

    long used(String tenant) {
        return pool.held(tenant);
    }

    private void charge(String tenant, long bytes) {
        pool.takeOrThrow(
                tenant,
                bytes,
                taken -> taken == SharedPool.Taken.SHARE_FULL
                        ? BodyRefused.busy("this tenant's request bodies being read take all of "
                                + "sluice.api.max-decoding-bytes-per-tenant; nothing was created; retry after "
                                + "Retry-After")
                        : BodyRefused.busy("the worker is reading as many request bytes as "
                                + "sluice.api.max-decoding-bytes allows; nothing was created; retry after "
                                + "Retry-After"));
    }

    private final class Charged implements Grant {

        private final String tenant;
        private long held;
        private boolean closed;

        Charged(String tenant) {
            this.tenant = tenant;
        }

        @Override
        public void atLeast(long bytes) {
            synchronized (DecodingBudget.this) {
                if (closed || bytes <= held) {
                    return;
                }
                charge(tenant, bytes - held);
                held = bytes;
            }
        }

        @Override
        public void settle(long bytes) {
            synchronized (DecodingBudget.this) {
                if (!closed && bytes < held) {
                    pool.give(tenant, held - bytes);
                    held = bytes;
                }
            }
            atLeast(bytes);
        }

        @Override
        public void close() {
            synchronized (DecodingBudget.this) {
                if (!closed) {
                    closed = true;
                    pool.give(tenant, held);
                }
            }
        }
    }
}
