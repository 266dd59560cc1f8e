package dev.sluice.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The system's resolver within a deadline. A lookup waits as long as the
 * host's resolver settings say (attempts times timeout times servers), and a
 * name's DNS is whoever owns the name: a callback's, an archive's or a
 * registry's, a tenant's choice. So a lookup runs on a thread of its own and
 * the caller waits for it {@link #DEADLINE} at most; past it the name is
 * taken as unknown, and the lookup's thread ends when the resolver gives up.
 */
final class SystemLookup {

    /** How long a caller waits for a name's addresses. */
    static final Duration DEADLINE = Duration.ofSeconds(5);

    private static final AtomicInteger THREADS = new AtomicInteger();

    /** Daemon threads: a lookup the resolver still holds never keeps the worker from ending. */
    private static final ExecutorService LOOKUPS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "dns-lookup-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    private SystemLookup() {}

    static InetAddress[] all(String host) throws UnknownHostException {
        return within(host, DEADLINE, InetAddress::getAllByName);
    }

    /** {@code lookup}'s answer for {@code host} if it comes within {@code deadline}; unknown otherwise. */
    static InetAddress[] within(String host, Duration deadline, GuardedDnsResolver.Lookup lookup)
            throws UnknownHostException {
        Future<InetAddress[]> answer = LOOKUPS.submit(() -> lookup.all(host));
        try {
            return answer.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new UnknownHostException(host + ": no answer within " + deadline.toSeconds() + " s");
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new UnknownHostException(host + ": interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownHostException unknown) {
                throw unknown;
            }
            throw new UnknownHostException(host + ": " + e.getCause());
        }
    }
}
