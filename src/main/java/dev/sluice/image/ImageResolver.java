package dev.sluice.image;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.PullPolicy;

/**
 * Settles a dispatch's image before its container is created (ADR 0059): it
 * is there and may run, or it is to be pulled first. One inspect when the
 * image is present under {@code if-not-present} or {@code never}, and no call
 * to a registry; the same inspect gives the create what it needs.
 */
public final class ImageResolver {

    /** What to do with the image. */
    public sealed interface Resolution {}

    /** It is on the engine: run it; {@code digest} is its content digest of the asked-for repository, or null. */
    public record Ready(ContainerRuntime.ImageFacts facts, String digest) implements Resolution {}

    /** Wait, without a slot, for this pull. */
    public record Pull(CompletableFuture<Void> pull) implements Resolution {}

    /** The image resolved to repositories the allow-list refuses. */
    public static final class Refused extends RuntimeException {
        public final DispatchResult.Error error;
        public final String digest;

        Refused(DispatchResult.Error error, String digest) {
            super(error.message(), null, false, false);
            this.error = error;
            this.digest = digest;
        }
    }

    private final ContainerRuntime runtime;
    private final ImagePulls pulls;
    private final ImagePolicy allowed;
    private final ImageUses uses;

    ImageResolver(ContainerRuntime runtime, ImagePulls pulls, ImagePolicy allowed, ImageUses uses) {
        this.runtime = runtime;
        this.pulls = pulls;
        this.allowed = allowed;
        this.uses = uses;
    }

    /**
     * @param tenant      whose turn a pull takes (ADR 0073)
     * @param pulledForIt the dispatch already waited for a pull of its image: it is not pulled again
     * @throws ContainerException {@code IMAGE_NOT_FOUND} when it is missing and may not be pulled
     * @throws Refused            when it resolved to where the allow-list does not reach
     */
    public Resolution resolve(String tenant, DispatchSpec spec, boolean pulledForIt) {
        ImageName name = ImageName.parse(spec.image());
        PullPolicy policy = spec.pullPolicy();
        if (policy == PullPolicy.ALWAYS && !pulledForIt) {
            return new Pull(pulls.pull(name, tenant));
        }
        // Before the inspect: a collector that has not yet claimed the reference's row now leaves it (ADR 0062).
        uses.used(name);
        Optional<ContainerRuntime.ImageFacts> facts = runtime.findImage(spec.image());
        if (facts.isEmpty()) {
            if (policy == PullPolicy.NEVER || pulledForIt) {
                throw new ContainerException(
                        ContainerException.Reason.IMAGE_NOT_FOUND,
                        "image " + spec.image() + " is not present on the engine");
            }
            return new Pull(pulls.pull(name, tenant));
        }
        String digest = name.digestIn(facts.get().repoDigests()).orElse(null);
        // What a pull brought must be of the repository asked for, or of one the allow-list allows. An image
        // the operator put on the engine is not judged by where it was pushed to since: a local build pushed
        // to a registry carries that registry's digest, not its own name's.
        if (pulledForIt && digest == null && !allowed.allowsResolved(facts.get().repoDigests())) {
            throw new Refused(resolvedNotAllowed(spec.image(), facts.get().repoDigests()), digest);
        }
        return new Ready(facts.get(), digest);
    }

    /** The image resolved to repositories none of which the allow-list allows (ADR 0059). */
    private static DispatchResult.Error resolvedNotAllowed(String image, List<String> repoDigests) {
        return new DispatchResult.Error(
                "image_not_allowed",
                "image " + image + " is held by the engine as " + String.join(", ", repoDigests)
                        + ", and none of these is on this worker's allow-list");
    }
}
