package dev.sluice.container;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.concurrent.Threads;

/**
 * The worker's two ways to the engine (ADR 0004, 0012): a control client whose calls
 * time out, for create, start, inspect, kill and remove; and a streaming client
 * without a read timeout, for attach, wait and logs, whose deadlines the
 * dispatch enforces itself. Separate pools mean a call never queues behind
 * hundreds of open log streams.
 */
public final class DockerClients implements AutoCloseable {

    private final DockerClient control;
    private final DockerClient streaming;
    private final DockerHttpClient streamingHttp;
    private final URI host;
    private final Duration connectTimeout;
    private final ExecutorService stdinWriters;

    private DockerClients(
            DockerClientConfig clientConfig,
            DockerHttpClient controlHttp,
            DockerHttpClient streamingHttp,
            Duration connectTimeout) {
        this.host = clientConfig.getDockerHost();
        this.connectTimeout = connectTimeout;
        this.stdinWriters = Executors.newCachedThreadPool(Threads.named("docker-stdin-"));
        this.control = DockerClientImpl.getInstance(clientConfig, controlHttp);
        this.streaming = DockerClientImpl.getInstance(clientConfig, streamingHttp);
        this.streamingHttp = streamingHttp;
    }

    public static DockerClients connect(DockerConfig config) {
        DefaultDockerClientConfig.Builder builder = DefaultDockerClientConfig.createDefaultConfigBuilder();
        config.host().ifPresent(builder::withDockerHost);
        DockerClientConfig clientConfig = builder.build();
        if (!EngineSocket.supports(clientConfig.getDockerHost(), clientConfig.getSSLConfig() != null)) {
            // Attach needs a connection that can half-close (ADR 0012); TLS and named pipes have none here.
            throw new IllegalArgumentException("sluice.docker.host " + clientConfig.getDockerHost()
                    + " is not supported: use a unix:// socket or a plain tcp:// endpoint, without TLS");
        }
        DockerHttpClient controlHttp = new ReconnectingHttpClient(
                () -> http(clientConfig, config.controlConnections(), config.connectTimeout(), config.callTimeout()));
        DockerHttpClient streamingHttp = new ReconnectingHttpClient(
                () -> http(clientConfig, config.streamConnections(), config.connectTimeout(), null));
        return new DockerClients(clientConfig, controlHttp, streamingHttp, config.connectTimeout());
    }

    private static DockerHttpClient http(
            DockerClientConfig config, int connections, Duration connectTimeout, Duration responseTimeout) {
        ApacheDockerHttpClient.Builder builder = new ApacheDockerHttpClient.Builder()
                .dockerHost(config.getDockerHost())
                .sslConfig(config.getSSLConfig())
                .maxConnections(connections)
                .connectionTimeout(connectTimeout);
        if (responseTimeout != null) {
            builder.responseTimeout(responseTimeout);
        }
        return builder.build();
    }

    public DockerClient control() {
        return control;
    }

    public DockerClient streaming() {
        return streaming;
    }

    /** The streaming transport itself, for log reads that parse frames without docker-java's per-frame objects. */
    DockerHttpClient streamingHttp() {
        return streamingHttp;
    }

    /** Opens an attach over a connection of its own (ADR 0012). */
    Attachment attach(String containerId, byte[] stdin) {
        return Attachment.open(host, connectTimeout, containerId, stdin, stdinWriters);
    }

    public URI host() {
        return host;
    }

    @Override
    public void close() throws IOException {
        stdinWriters.shutdownNow();
        try {
            control.close();
        } finally {
            streaming.close();
        }
    }
}
