package dev.sluice.container;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.AuthConfig;
import com.github.dockerjava.api.model.PullResponseItem;

/**
 * Pulls an image from its registry, with the credentials of that registry,
 * within {@code sluice.images.pull-timeout}: the pull's connection to the
 * engine is closed at the deadline, which ends the engine's pull too, so no
 * thread waits on a registry that stalls (ADR 0059). A failure is a
 * {@link ContainerException} with {@code IMAGE_PULL_FAILED} whose message
 * starts with the {@link PullFailure}'s words; it quotes the engine, and
 * never a password (a password the engine echoed is cut out).
 */
public final class ImagePuller {

    /** Past the transport's deadline, how long to wait for the closed stream to be reported. */
    private static final Duration REPORT_GRACE = Duration.ofSeconds(5);

    private final DockerClient client;
    private final Duration timeout;

    public ImagePuller(DockerClients clients, Duration timeout) {
        this.client = clients.bounded(timeout);
        this.timeout = timeout;
    }

    /** Returns once the engine holds the image; throws {@link ContainerException} otherwise. */
    public void pull(ImageName name, Optional<RegistryCredential> credential) {
        Progress progress = new Progress();
        try {
            client.pullImageCmd(name.repository())
                    .withTag(name.pullTag())
                    .withAuthConfig(auth(name, credential))
                    .exec(progress);
            if (!progress.awaitCompletion(timeout.plus(REPORT_GRACE).toMillis(), TimeUnit.MILLISECONDS)) {
                throw failure(name, PullFailure.TIMEOUT, null);
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
            return failure(name, PullFailure.TIMEOUT, null);
        }
        if (!(e instanceof DockerException)) {
            // The engine itself could not be reached or broke off: not the registry's doing.
            return ContainerException.from("pull", asRuntime(e));
        }
        String said = masked(ContainerException.engineMessage(asRuntime(e)), credential);
        return failure(name, PullFailure.of(said), said);
    }

    private ContainerException failure(ImageName name, PullFailure kind, String said) {
        String detail = kind == PullFailure.TIMEOUT
                ? "the pull of " + name + " did not end within " + EngineTimeoutException.readable(timeout)
                        + " (sluice.images.pull-timeout)"
                : "could not pull " + name + (said == null ? "" : ": " + said);
        return new ContainerException(ContainerException.Reason.IMAGE_PULL_FAILED, kind.words() + ": " + detail);
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
