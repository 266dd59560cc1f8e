package dev.sluice.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.Executors;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.sluice.concurrent.Threads;
import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.CallbackUrlPolicy;
import dev.sluice.outbound.GuardedDnsResolver;

class WorkspaceProducer {

    @Produces
    @Singleton
    Workspaces workspaces(WorkspaceConfig config, @ConfigProperty(name = "sluice.data-dir") String dataDir) {
        // The callbacks' guard with the workspace's own allow-list: a host allowed to receive results is not
        // thereby allowed to hand agents files.
        AddressPolicy addresses = new AddressPolicy(config.allowedHosts().orElse(List.of()));
        ArchiveFetch fetch = new ArchiveFetch(
                new GuardedDnsResolver(addresses, GuardedDnsResolver.Lookup.system()),
                tls(config),
                config.connectTimeout(),
                config.fetchTimeout(),
                Executors.newSingleThreadScheduledExecutor(Threads.named("workspace-fetch-deadline-")));
        return new Workspaces(
                WorkspaceLimits.of(config),
                new WorkspaceFiles(Path.of(dataDir, "workspaces")),
                new CallbackUrlPolicy(addresses),
                fetch,
                new KeptBytes(
                        config.maxKeptBytes().asLongValue(),
                        config.maxKeptBytesPerTenant().asLongValue()));
    }

    void close(@Disposes Workspaces workspaces) {
        workspaces.close();
    }

    /** The JVM's authorities, and those of {@code trust-certificates} when set. */
    static SSLContext tls(WorkspaceConfig config) {
        try {
            if (config.trustCertificates().isEmpty()) {
                return SSLContext.getDefault();
            }
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            TrustManagerFactory jvm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jvm.init((KeyStore) null);
            int n = 0;
            for (var manager : jvm.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    for (X509Certificate ca : x509.getAcceptedIssuers()) {
                        trusted.setCertificateEntry("jvm-" + n++, ca);
                    }
                }
            }
            try (InputStream pem =
                    Files.newInputStream(Path.of(config.trustCertificates().get()))) {
                for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(pem)) {
                    trusted.setCertificateEntry("configured-" + n++, ca);
                }
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "sluice.workspace.trust-certificates could not be read as PEM certificates: " + e.getMessage(), e);
        }
    }
}
