package dev.sluice.callback;

import java.time.Duration;

/**
 * Announced for every callback attempt once its outcome is recorded.
 *
 * @param failure why no 2xx came ({@code refused_address}, {@code unresolved}, {@code connect},
 *                {@code timeout}, {@code reset}, {@code tls}, {@code io}, {@code unsigned} (not sent:
 *                no secret serves its tenant), {@code redirect} or
 *                {@code http_<n>xx}), or {@code null} when it was delivered
 * @param took    from sending the request to the end of the answer, or to the failure
 */
public record DeliveryAttempted(Outcome outcome, String failure, Duration took) {

    /** What the attempt made of the delivery. */
    public enum Outcome {
        /** A 2xx: delivered. */
        DELIVERED,
        /** It failed, and another attempt is scheduled. */
        RETRY,
        /** The receiver answered 410 Gone: dead-lettered at once. */
        GONE,
        /** It failed, and the retry schedule is exhausted: dead-lettered. */
        EXHAUSTED;

        public boolean deadLetter() {
            return this == GONE || this == EXHAUSTED;
        }
    }
}
