package dev.sluice.image;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.jboss.logging.Logger;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.AuthConfig;
import com.github.dockerjava.api.model.PullResponseItem;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineTimeoutException;

/**
 * Pulls an image from its registry, with the credentials of that registry,
 * within {@code sluice.images.pull-timeout}: the pull's connection to the
 * engine is closed at the deadline, which ends the engine's pull too, so no
 * thread waits on a registry that stalls (ADR 0059). The registry is asked
 * only where {@code mayPullFrom} allows its {@code host[:port]} (ADR 0075). A
 * failure is a {@link ContainerException} with {@code IMAGE_PULL_FAILED}
 * whose message is a {@link PullFailure}'s detail, in our words alone; what
 * the engine said goes to the log, never a password (one the engine echoed
 * is cut out).
 */
final class ImagePuller {

    private static final Logger LOG = Logger.getLogger(ImagePuller.class);

    /** Past the transport's deadline, how long to wait for the closed stream to be reported. */
    private static final Duration REPORT_GRACE = Duration.ofSeconds(5);

    private final DockerClient client;
    private final Duration timeout;
    private final Predicate<String> mayPullFrom;

    /** @param mayPullFrom whether a registry, as {@link ImageName#domain()} names it, may be asked now */
    public ImagePuller(DockerClients clients, Duration timeout, Predicate<String> mayPullFrom) {
        this.client = clients.bounded(timeout);
        this.timeout = timeout;
        this.mayPullFrom = mayPullFrom;
    }

    /** Returns once the engine holds the image; throws {@link ContainerException} otherwise. */
    public void pull(ImageName name, Optional<RegistryCredential> credential) {
        if (!mayPullFrom.test(name.domain())) {
            throw failure(name, PullFailure.NOT_ALLOWED, "its registry's name resolves to an internal address");
        }
        Progress progress = new Progress();
        try {
            client.pullImageCmd(name.repository())
                    .withTag(name.pullTag())
                    .withAuthConfig(auth(name, credential))
                    .exec(progress);
            if (!progress.awaitCompletion(timeout.plus(REPORT_GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
                throw failure(name, PullFailure.TIMEOUT, timedOut());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(name, PullFailure.FAILED, "interrupted");
        } catch (RuntimeException e) {
            throw classified(name, e, credential);
        } finally {
            close(progress);
        }
        if (progress.failure != null) {
            throw classified(name, progress.failure, credential);
        }
        if (progress.streamError != null) {
            String said = masked(progress.streamError, credential);
            throw failure(name, PullFailure.of(said), said);
        }
    }

    private ContainerException classified(ImageName name, Throwable e, Optional<RegistryCredential> credential) {
        if (e instanceof ContainerException ce) {
            return ce;
        }
        if (timedOut(e)) {
            return failure(name, PullFailure.TIMEOUT, timedOut());
        }
        if (!(e instanceof DockerException)) {
            // The engine itself could not be reached or broke off: not the registry's doing.
            LOG.warnf(
                    "pull of %s: %s",
                    name, masked(ContainerException.from("pull", asRuntime(e)).getMessage(), credential));
            return new ContainerException(
                    ContainerException.Reason.ENGINE_UNAVAILABLE,
                    "pull: the Docker engine could not be reached, or broke the pull off");
        }
        String said = masked(ContainerException.engineMessage(asRuntime(e)), credential);
        return failure(name, PullFailure.of(said), said);
    }

    /** What the result says: the kind's detail alone. What the engine said: the log, for the operator. */
    private static ContainerException failure(ImageName name, PullFailure kind, String said) {
        LOG.warnf("pull of %s failed (%s): %s", name, kind.words(), said);
        return new ContainerException(ContainerException.Reason.IMAGE_PULL_FAILED, kind.detail());
    }

    private String timedOut() {
        return "did not end within " + EngineTimeoutException.readable(timeout) + " (sluice.images.pull-timeout)";
    }

    /** Docker Hub's credentials are sent for its v1 address, as the Docker CLI does. */
    private static AuthConfig auth(ImageName name, Optional<RegistryCredential> credential) {
        AuthConfig auth = new AuthConfig();
        credential.ifPresent(c -> auth.withUsername(c.username())
                .withPassword(c.password())
                .withRegistryAddress(
                        name.domain().equals(ImageName.HUB) ? AuthConfig.DEFAULT_SERVER_ADDRESS : name.domain()));
        return auth;
    }

    private static String masked(String said, Optional<RegistryCredential> credential) {
        String text = said == null ? "" : said;
        if (credential.isPresent() && !credential.get().password().isEmpty()) {
            text = text.replace(credential.get().password(), "****");
        }
        return text;
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof EngineTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static RuntimeException asRuntime(Throwable e) {
        return e instanceof RuntimeException r ? r : new RuntimeException(e.getMessage(), e);
    }

    private static void close(ResultCallback<?> callback) {
        try {
            callback.close();
        } catch (Exception e) {
            // the stream is closed either way
        }
    }

    /** The pull's stream: an error the engine reports inside it, or the failure that ended it. */
    private static final class Progress extends ResultCallback.Adapter<PullResponseItem> {
        volatile String streamError;
        volatile Throwable failure;

        @Override
        public void onNext(PullResponseItem item) {
            if (item.getErrorDetail() != null && item.getErrorDetail().getMessage() != null) {
                streamError = item.getErrorDetail().getMessage();
            } else if (item.getError() != null) {
                streamError = item.getError();
            }
        }

        /** Recorded for the classification, not logged: the adapter's own handling would log it whole. */
        @Override
        public void onError(Throwable throwable) {
            failure = throwable;
            onComplete();
        }
    }
}
