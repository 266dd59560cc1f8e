package dev.sluice.actions;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The v1 API's access and size limits. */
@ConfigMapping(prefix = "sluice.api")
public interface ApiConfig {

    /**
     * Bearer tokens accepted on {@code /v1/**} and {@code /mcp}, comma-separated, each
     * {@code tenant:token}; a bare token belongs to the tenant {@code default}. A holder
     * sees its tenant's dispatches and groups only (ADR 0052). A tenant matches
     * {@code [a-z0-9][a-z0-9_-]{0,31}}; a token is at least 16 visible ASCII
     * characters and holds no {@code :}, so an entry with a {@code :} is always
     * {@code tenant:token} and a bare token may not contain one. Any other entry
     * stops the worker at start (ADR 0074).
     */
    Optional<List<String>> tokens();

    /**
     * Bearer tokens that see and act on every tenant's dispatches and groups,
     * comma-separated, written as {@code sluice.api.tokens} entries are (what an
     * operator creates belongs to the tenant its entry names).
     */
    Optional<List<String>> operatorTokens();

    /**
     * Lets the worker start with no token while it listens beyond loopback; every
     * request is then the {@code default} tenant's, and each start says so in a warning.
     */
    @WithDefault("false")
    boolean anonymous();

    /**
     * Largest request body; larger ones get 413 and change nothing. Its default
     * (12M) is in application.properties, which the HTTP layer's limit follows.
     * It must hold the largest workspace in base64 (4/3 of
     * {@code sluice.workspace.max-bytes}) plus {@code sluice.dispatch.max-input}
     * plus 256 KiB, or the worker refuses to start (ADR 0060).
     */
    MemorySize maxRequestSize();

    /**
     * The most bytes of request bodies the worker reads at once, over the API
     * and MCP together: a body counts its length (one that declares none, up
     * to {@code sluice.api.max-request-size} while it is read) and at least
     * 64 bytes for each JSON token it holds, from before its first byte is
     * read until its answer is sent. Past it a body is refused at once with
     * {@code 429 too-many-bodies} and {@code Retry-After} (ADR 0076). A body
     * takes a few times its length on the heap while it is read (a workspace's
     * text, then its files decoded), so the default keeps that well inside the
     * shipped {@code -Xmx512m} beside the running dispatches' output. At least
     * {@code sluice.api.max-decoding-bytes-per-tenant}.
     */
    @WithDefault("32M")
    MemorySize maxDecodingBytes();

    /**
     * The same bound for each tenant's bodies, so that one tenant's large
     * bodies leave the others room. At least {@code sluice.api.max-request-size}
     * and 12,800,000 bytes (the most 200,000 tokens are charged), or the worker
     * refuses to start: a body that could never be read would get 429 forever.
     */
    @WithDefault("16M")
    MemorySize maxDecodingBytesPerTenant();

    /** Page size of a listing when the request names none. */
    @WithDefault("20")
    int defaultPageSize();

    /** The most a listing's {@code limit} may name. */
    @WithDefault("100")
    int maxPageSize();

    /** Bytes of log a range read returns when the request names no {@code limit}. */
    @WithDefault("1M")
    MemorySize defaultLogRange();

    /** The most bytes of log one range read may ask for. */
    @WithDefault("16M")
    MemorySize maxLogRange();

    /**
     * Log range reads served at once, through the API and MCP together; past it
     * a read is refused with {@code 429 too-many-log-reads}. Each holds a 64 KiB
     * block and twice the longest secret form while it streams, an engine
     * connection and a worker thread.
     */
    @WithDefault("32")
    int maxLogReads();

    /**
     * How long one write of a log range to a client may wait for the client to
     * read: past it the connection is closed and the read's slot freed, so a
     * client that stops reading holds no slot for long.
     */
    @WithDefault("30s")
    Duration logWriteTimeout();

    /**
     * Log range reads of one tenant served at once, through the API and MCP
     * together; past it that tenant's next read is refused with
     * {@code 429 too-many-log-reads} while other tenants still read (ADR 0073).
     * Half of {@code max-log-reads}: a tenant that holds its share leaves as
     * many to the others.
     */
    @WithDefault("16")
    int maxLogReadsPerTenant();

    /**
     * Reads relayed at once to the replicas running their dispatches (ADR 0065),
     * every tenant's together: log ranges, artifacts and event streams, each
     * from its request to the end of its relayed body. Each holds a connection
     * to the other replica (the relay keeps 256 at most) and, for an event
     * stream, a thread; past it a read that would be relayed is refused with
     * {@code 429 too-many-relayed-reads}.
     */
    @WithDefault("128")
    int maxRelayedReads();

    /**
     * Reads of one tenant relayed at once to other replicas; past it that
     * tenant's next relayed read is refused with {@code 429 too-many-relayed-reads}
     * while other tenants' are still relayed (ADR 0073). A quarter of
     * {@code max-relayed-reads}.
     */
    @WithDefault("32")
    int maxRelayedReadsPerTenant();
}
