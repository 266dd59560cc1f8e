package dev.sluice.container.engine;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.AuthConfig;
import com.github.dockerjava.api.model.AuthConfigurations;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.RemoteApiVersion;
import com.github.dockerjava.core.SSLConfig;
import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.concurrent.Threads;

/**
 * The worker's ways to the engine, every one with a deadline (ADR 0012,
 * 0016): a control client for create, start, inspect, kill, remove and list,
 * whose calls end within {@code sluice.docker.call-timeout}; a streaming client
 * for wait and logs, whose setup ends within it and whose streams the dispatch
 * bounds itself; attach over a connection of its own; and the health ping.
 * All run over {@link EngineHttpClient}, a connection per call, so a call never
 * queues behind another. Creates, starts and removals are paced by
 * {@link EngineChanges}; answers and timeouts are recorded in
 * {@link EngineCalls} for readiness, and every call is announced as an
 * {@link EngineCall}.
 */
public final class DockerClients implements AutoCloseable {

    private final URI host;
    private final ScheduledThreadPoolExecutor deadlines;
    private final EngineCalls calls;
    private final EngineChanges changes;
    private final EngineHttpClient controlHttp;
    private final EngineHttpClient streamingHttp;
    private final EngineHttpClient pingHttp;
    private final ObjectMapper answers;
    private final DockerClient control;
    private final DockerClient streaming;
    private final ExecutorService attachThreads;
    private final Duration callTimeout;
    private final Duration connectTimeout;
    private final Consumer<EngineCall> observed;
    private final SharedMapper shared;

    /** The engine's name for itself and its version, asked once (ADR 0078); null until it has answered. */
    private volatile EngineIdentity identity;

    private DockerClients(DockerClientConfig clientConfig, DockerConfig config, Consumer<EngineCall> observed) {
        this.host = clientConfig.getDockerHost();
        // One thread closes the connections of calls that overran; cancelled deadlines leave its queue at once.
        this.deadlines = new ScheduledThreadPoolExecutor(1, Threads.named("docker-deadline-"));
        deadlines.setRemoveOnCancelPolicy(true);
        this.calls = new EngineCalls(config.callTimeout(), Clock.systemUTC());
        this.changes = new EngineChanges(config.maxConcurrentChanges(), config.callTimeout());
        this.controlHttp = http(config, config.callTimeout(), EngineHttpClient.Scope.WHOLE_CALL, calls, observed);
        this.streamingHttp = http(config, config.callTimeout(), EngineHttpClient.Scope.UNTIL_HEAD, calls, observed);
        // A slow ping has a rule of its own (EngineMonitor): it is not a call timing out.
        this.pingHttp = http(config, config.pingTimeout(), EngineHttpClient.Scope.WHOLE_CALL, null, observed);
        // One mapper of requests and answers for both clients (docker-java would give each a copy of its own),
        // so what the warm-up prepares in it serves every call.
        this.answers = clientConfig.getObjectMapper();
        this.shared = new SharedMapper(clientConfig, answers);
        this.control = DockerClientImpl.getInstance(shared, controlHttp);
        this.streaming = DockerClientImpl.getInstance(shared, streamingHttp);
        this.attachThreads = Executors.newCachedThreadPool(Threads.named("docker-attach-"));
        this.callTimeout = config.callTimeout();
        this.connectTimeout = config.connectTimeout();
        this.observed = observed;
    }

    /**
     * A client whose every call, its answer's body included, ends within
     * {@code timeout}, and whose timeouts are not the engine's: a pull waits
     * on a registry, and a slow registry must not make the engine look wedged
     * to readiness (ADR 0059).
     */
    public DockerClient bounded(Duration timeout) {
        EngineHttpClient http = new EngineHttpClient(
                host, connectTimeout, timeout, EngineHttpClient.Scope.WHOLE_CALL, deadlines, null, observed);
        return DockerClientImpl.getInstance(shared, http);
    }

    private EngineHttpClient http(
            DockerConfig config,
            Duration timeout,
            EngineHttpClient.Scope scope,
            EngineCalls recorded,
            Consumer<EngineCall> observed) {
        return new EngineHttpClient(host, config.connectTimeout(), timeout, scope, deadlines, recorded, observed);
    }

    /** Clients whose calls are announced to nobody. */
    public static DockerClients connect(DockerConfig config) {
        return connect(config, call -> {});
    }

    /** @param observed told of every call to the engine */
    public static DockerClients connect(DockerConfig config, Consumer<EngineCall> observed) {
        DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
        config.host().ifPresent(builder::withDockerHost);
        DockerClientConfig clientConfig = builder.build();
        if (!EngineSocket.supports(clientConfig.getDockerHost(), clientConfig.getSSLConfig() != null)) {
            // Our connections speak neither TLS nor named pipes (ADR 0012).
            throw new IllegalArgumentException("sluice.docker.host " + clientConfig.getDockerHost()
                    + " is not supported: use a unix:// socket or a plain tcp:// endpoint, without TLS");
        }
        return new DockerClients(clientConfig, config, observed);
    }

    public DockerClient control() {
        return control;
    }

    public DockerClient streaming() {
        return streaming;
    }

    /** The streaming transport itself, for attaches and for log reads that parse frames without docker-java's per-frame objects. */
    public EngineHttpClient streamingHttp() {
        return streamingHttp;
    }

    /** The control transport itself, for the monitor's probe and the calls docker-java has no command for. */
    public EngineHttpClient controlHttp() {
        return controlHttp;
    }

    /** The health ping's transport: bounded by {@code sluice.docker.ping-timeout}, its timeouts not recorded as calls'. */
    DockerHttpClient pingHttp() {
        return pingHttp;
    }

    /** The mapper both clients read the engine's answers with. */
    public ObjectMapper answers() {
        return answers;
    }

    EngineCalls calls() {
        return calls;
    }

    public EngineChanges changes() {
        return changes;
    }

    /** The deadline of each control call ({@code sluice.docker.call-timeout}). */
    public Duration callTimeout() {
        return callTimeout;
    }

    /** The threads attaches write their input on. */
    public Executor attachThreads() {
        return attachThreads;
    }

    public URI host() {
        return host;
    }

    /**
     * Which engine answers, asked of {@code /version} the first time (within the
     * call deadline) and kept: what differs between engines is chosen from it
     * once (ADR 0078). Until the engine has answered, each call asks again, and
     * fails as that call failed.
     */
    public EngineIdentity identity() {
        EngineIdentity known = identity;
        if (known == null) {
            try {
                known = EngineIdentity.of(control.versionCmd().exec());
            } catch (RuntimeException e) {
                throw ContainerException.from("version", e);
            }
            identity = known;
        }
        return known;
    }

    /**
     * Whether the engine has said it is Podman, without asking it: a worker's
     * engine monitor asks {@link #identity} before the engine counts as up, so
     * every dispatch's container is made knowing it.
     */
    public boolean knownPodman() {
        EngineIdentity known = identity;
        return known != null && known.podman();
    }

    @Override
    public void close() {
        attachThreads.shutdownNow();
        deadlines.shutdownNow();
    }

    /** The client settings as they are, with one mapper for every client made from them. */
    private record SharedMapper(DockerClientConfig config, ObjectMapper mapper) implements DockerClientConfig {

        @Override
        public ObjectMapper getObjectMapper() {
            return mapper;
        }

        @Override
        public URI getDockerHost() {
            return config.getDockerHost();
        }

        @Override
        public RemoteApiVersion getApiVersion() {
            return config.getApiVersion();
        }

        @Override
        public String getRegistryUsername() {
            return config.getRegistryUsername();
        }

        @Override
        public String getRegistryPassword() {
            return config.getRegistryPassword();
        }

        @Override
        public String getRegistryEmail() {
            return config.getRegistryEmail();
        }

        @Override
        public String getRegistryUrl() {
            return config.getRegistryUrl();
        }

        /**
         * None: docker-java would otherwise send the credentials of the worker's own
         * {@code ~/.docker/config.json} with a pull. A pull carries only those the worker
         * was configured with (ADR 0059).
         */
        @Override
        public AuthConfig effectiveAuthConfig(String imageName) {
            return new AuthConfig();
        }

        @Override
        public AuthConfigurations getAuthConfigurations() {
            return config.getAuthConfigurations();
        }

        @Override
        public SSLConfig getSSLConfig() {
            return config.getSSLConfig();
        }
    }
}
