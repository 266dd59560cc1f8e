package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.MutableClock;

/**
 * A relayed read is taken only with the replicas' own signature, for the
 * tenant, worker, method and path it was signed for, within its validity and
 * once (ADR 0072).
 */
class RelaySignaturesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
    private static final String KEY = base64(32, 'k');
    private static final String OTHER_KEY = base64(32, 'o');
    private static final String LOG = "/v1/dispatches/review-42/logs/stdout?offset=0&limit=10";

    private final MutableClock clock = new MutableClock(NOW);
    private final RelaySignatures sender = signatures("w-sender", KEY);
    private final RelaySignatures owner = signatures("w-owner", KEY);

    private static String base64(int bytes, char fill) {
        return Base64.getEncoder()
                .encodeToString(String.valueOf(fill).repeat(bytes).getBytes());
    }

    private RelaySignatures signatures(String self, String... secrets) {
        return RelaySignatures.of(Optional.of(List.of(secrets)), self, clock);
    }

    private String signed(RelaySignatures by, String target, String tenant, String to) {
        return by.sign("GET", target, tenant, to).orElseThrow();
    }

    @Test
    void aReadSignedForThisWorkerIsTakenForItsTenantOnce() {
        String header = signed(sender, LOG, "alpha", "w-owner");

        assertThat(owner.verify(header, "GET", LOG)).isEqualTo(new RelaySignatures.Verdict.Accepted("alpha"));
        assertThat(owner.verify(header, "GET", LOG))
                .as("the same relay again")
                .isInstanceOf(RelaySignatures.Verdict.Refused.class);
        assertThat(owner.verify(signed(sender, LOG, "alpha", "w-owner"), "GET", LOG))
                .as("another relay of the same read")
                .isInstanceOf(RelaySignatures.Verdict.Accepted.class);
    }

    @Test
    void aWrongKeyIsRefusedAndEveryKeyOfARotationVerifies() {
        RelaySignatures stranger = signatures("w-stranger", OTHER_KEY);
        assertRefused(owner.verify(signed(stranger, LOG, "alpha", "w-owner"), "GET", LOG), "does not verify");

        RelaySignatures rotating = signatures("w-owner", OTHER_KEY, KEY);
        assertThat(rotating.verify(signed(sender, LOG, "alpha", "w-owner"), "GET", LOG))
                .isInstanceOf(RelaySignatures.Verdict.Accepted.class);
        assertThat(rotating.verify(signed(stranger, LOG, "alpha", "w-owner"), "GET", LOG))
                .isInstanceOf(RelaySignatures.Verdict.Accepted.class);
    }

    @Test
    void aRelayPastItsValidityIsRefusedEitherWay() {
        String header = signed(sender, LOG, "alpha", "w-owner");
        clock.advance(RelaySignatures.VALIDITY.plusSeconds(1));
        assertRefused(owner.verify(header, "GET", LOG), "more than 30 s from this worker's clock");

        // A sender whose clock runs ahead of the owner's by more than the validity, then by less.
        Instant signedAt = clock.instant();
        String ahead = signed(sender, LOG, "alpha", "w-owner");
        clock.set(signedAt.minus(RelaySignatures.VALIDITY).minusSeconds(1));
        assertRefused(owner.verify(ahead, "GET", LOG), "more than 30 s");

        clock.set(signedAt.minus(RelaySignatures.VALIDITY).plusSeconds(1));
        assertThat(owner.verify(ahead, "GET", LOG))
                .as("within the validity, the same header, refused before for its time alone")
                .isInstanceOf(RelaySignatures.Verdict.Accepted.class);
    }

    @Test
    void anAlteredPathTenantOrWorkerIsRefused() {
        String header = signed(sender, LOG, "alpha", "w-owner");

        assertRefused(owner.verify(header, "GET", LOG.replace("offset=0", "offset=1")), "does not verify");
        assertRefused(
                owner.verify(header, "GET", "/v1/dispatches/review-42/logs/stderr?offset=0&limit=10"),
                "does not verify");
        assertRefused(owner.verify(header.replace("tenant=alpha", "tenant=beta"), "GET", LOG), "does not verify");
        assertRefused(
                signatures("w-other", KEY).verify(header, "GET", LOG),
                "does not verify"); // signed for w-owner: replayed to another replica within the validity
        assertRefused(owner.verify(header.replace("ts=", "ts=1"), "GET", LOG), "more than");
        assertThat(owner.verify(header, "GET", LOG))
                .as("none of the altered ones took its nonce")
                .isInstanceOf(RelaySignatures.Verdict.Accepted.class);
    }

    @Test
    void onlyTheReadsARelayMakesAreTaken() {
        for (String target : List.of("/v1/dispatches", "/v1/dispatches/review-42", "/mcp", "/q/metrics")) {
            String header = signed(sender, target, "alpha", "w-owner");
            assertRefused(owner.verify(header, "GET", target), "not a read a relay may ask for");
        }
        String cancel = sender.sign("DELETE", "/v1/dispatches/review-42/events", "alpha", "w-owner")
                .orElseThrow();
        assertRefused(owner.verify(cancel, "DELETE", "/v1/dispatches/review-42/events"), "not a read");
    }

    @Test
    void noSignatureAMalformedOneOrNoSecretIsRefused() {
        assertRefused(owner.verify(null, "GET", LOG), "without a signature");
        for (String header : List.of(
                "",
                "v1",
                "v2;tenant=alpha;ts=1;nonce=AAAAAAAAAAAAAAAAAAAAAAAA;sig=x",
                "v1;tenant=Alpha!;ts=1;nonce=AAAAAAAAAAAAAAAAAAAAAAAA;sig=" + "A".repeat(43),
                "v1;tenant=alpha;tenant=beta;nonce=AAAAAAAAAAAAAAAAAAAAAAAA;sig=" + "A".repeat(43),
                "v1;tenant=alpha;ts=1;nonce=AAAAAAAAAAAAAAAAAAAAAAAA;sig=" + "A".repeat(600))) {
            assertRefused(owner.verify(header, "GET", LOG), "malformed");
        }
        RelaySignatures none = RelaySignatures.of(Optional.empty(), "w-owner", clock);
        assertThat(none.configured()).isFalse();
        assertThat(none.sign("GET", LOG, "alpha", "w-owner")).isEmpty();
        assertRefused(none.verify(signed(sender, LOG, "alpha", "w-owner"), "GET", LOG), "is not set");
    }

    @Test
    void aSecretThatIsNotBase64OfThirtyTwoBytesStopsTheStartNamingItsEntryAlone() {
        for (String secret : List.of("REPLACE_ME_with_base64_of_32_random_bytes", base64(31, 's'))) {
            assertThatThrownBy(() -> signatures("w", KEY, secret))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("sluice.worker.relay-secrets, entry 2: ")
                    .hasMessageNotContaining(secret)
                    .hasMessageNotContaining(KEY);
        }
    }

    private static void assertRefused(RelaySignatures.Verdict verdict, String why) {
        assertThat(verdict).isInstanceOf(RelaySignatures.Verdict.Refused.class);
        assertThat(((RelaySignatures.Verdict.Refused) verdict).why()).contains(why);
    }
}
