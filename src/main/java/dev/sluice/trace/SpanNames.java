package dev.sluice.trace;

/**
 * The names of a dispatch's spans and of their attributes (docs/operations.md,
 * "Traces"). Attributes say what happened to a dispatch, never what it was
 * given or printed: no secret, no input, no output text.
 */
public final class SpanNames {

    /** From the request to the dispatch waiting in the queue; every later span of the dispatch hangs under it. */
    public static final String DISPATCH = "sluice.dispatch";

    public static final String QUEUE_WAIT = "sluice.queue.wait";
    public static final String IMAGE_PULL = "sluice.image.pull";
    public static final String CONTAINER_CREATE = "sluice.container.create";
    public static final String CONTAINER_START = "sluice.container.start";
    /** From the container's start to its exit. */
    public static final String RUN = "sluice.run";
    /** The report, the artifacts and the witness, read back after the exit. */
    public static final String COLLECT = "sluice.collect";
    /** Building, storing and announcing the result. */
    public static final String FINISH = "sluice.finish";
    /** One callback attempt, a client span: its context is the {@code traceparent} the attempt carries. */
    public static final String CALLBACK = "sluice.callback";

    public static final String DISPATCH_ID = "sluice.dispatch.id";
    public static final String TENANT = "sluice.tenant";
    public static final String IMAGE = "container.image.name";
    public static final String IMAGE_DIGEST = "sluice.image.digest";
    public static final String CONTAINER_ID = "container.id";
    public static final String REPLAYED = "sluice.replayed";
    public static final String ATTEMPT = "sluice.attempt";
    public static final String STATUS = "sluice.status";
    public static final String ERROR_CODE = "sluice.error.code";
    public static final String EXIT_CODE = "sluice.exit_code";
    public static final String STDOUT_KEPT = "sluice.stdout.bytes_kept";
    public static final String STDOUT_DROPPED = "sluice.stdout.bytes_dropped";
    public static final String STDERR_KEPT = "sluice.stderr.bytes_kept";
    public static final String STDERR_DROPPED = "sluice.stderr.bytes_dropped";
    public static final String WEBHOOK_ID = "sluice.webhook.id";
    public static final String CALLBACK_ATTEMPT = "sluice.callback.attempt";
    public static final String HTTP_STATUS = "http.response.status_code";
    public static final String DELIVERY = "sluice.callback.outcome";

    private SpanNames() {}
}
