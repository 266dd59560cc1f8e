package dev.sluice.outbound;

import java.time.Duration;

import javax.net.ssl.SSLContext;

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.util.Timeout;

/**
 * The one way the worker builds an HTTP client for a peer a request named:
 * every address it connects to passes the {@link GuardedDnsResolver} (ADR
 * 0056), a connection and every read have a deadline, and it follows no
 * redirect, retries nothing, keeps no cookie and caches no credentials, so
 * an answer can neither lead it elsewhere nor make it repeat a request.
 */
public final class GuardedHttpClients {

    /**
     * How many connections it keeps, and what it says it is.
     *
     * @param maxConnections   connections in all
     * @param maxPerHost       connections to one host
     * @param userAgent        its {@code User-Agent}
     * @param tls              the TLS context to trust with; {@code null} for the JVM's default trust
     */
    public record Options(int maxConnections, int maxPerHost, String userAgent, SSLContext tls) {}

    private GuardedHttpClients() {}

    /** A client whose connects end within {@code connectTimeout} and whose reads each within {@code readTimeout}. */
    public static CloseableHttpClient create(
            GuardedDnsResolver resolver, Duration connectTimeout, Duration readTimeout, Options options) {
        PoolingHttpClientConnectionManagerBuilder connections = PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(resolver)
                .setMaxConnTotal(options.maxConnections())
                .setMaxConnPerRoute(options.maxPerHost())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(Timeout.of(readTimeout))
                        .build());
        if (options.tls() != null) {
            connections.setTlsSocketStrategy(new DefaultClientTlsStrategy(options.tls()));
        }
        return HttpClients.custom()
                .setConnectionManager(connections.build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .setUserAgent(options.userAgent())
                .build();
    }
}
