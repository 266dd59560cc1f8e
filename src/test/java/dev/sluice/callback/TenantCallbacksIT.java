package dev.sluice.callback;

import static dev.sluice.testsupport.WorkerClient.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * A tenant cannot sign results as another tenant's (ADR 0074), against the
 * packaged worker and the real engine, verified the way a receiver verifies:
 * by the standardwebhooks library. {@code alpha} and {@code beta} both send
 * {@code review-42} to the receiver {@code beta} runs, which holds
 * {@code beta}'s secret; only {@code beta}'s delivery verifies there, and each
 * body names its tenant. With one secret shared by every tenant the signature
 * cannot tell them apart, and the body's {@code tenant} does. A tenant held to
 * one callback host is refused any other, and nothing is created.
 */
class TenantCallbacksIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALPHA_TOKEN = "alpha-token-0123456789abcdef";
    private static final String BETA_TOKEN = "beta-token-0123456789abcdef";
    private static final String GAMMA_TOKEN = "gamma-token-0123456789abcdef";
    private static final String ALPHA_SECRET = Signatures.freshSecret();
    private static final String BETA_SECRET = Signatures.freshSecret();
    private static final String ALPHA_SAYS = "alpha approves review-42\n";
    private static final String BETA_SAYS = "beta: review-42 needs changes\n";

    private static WorkerProcess worker;
    private static Receiver receiver;

    @BeforeAll
    static void start() {
        receiver = Receiver.on("127.0.0.1");
        worker = WorkerProcess.start(WorkerProcess.environment(
                "tenant-callbacks",
                Map.of(
                        "SLUICE_API_TOKENS",
                        "alpha:" + ALPHA_TOKEN + ",beta:" + BETA_TOKEN + ",gamma:" + GAMMA_TOKEN,
                        "SLUICE_TENANTS_ALPHA_SIGNING_SECRETS",
                        ALPHA_SECRET,
                        "SLUICE_TENANTS_BETA_SIGNING_SECRETS",
                        BETA_SECRET,
                        "SLUICE_TENANTS_GAMMA_CALLBACK_ALLOWED_HOSTS",
                        "hooks.gamma.example")));
    }

    @AfterAll
    static void stop() {
        if (worker != null) {
            worker.close();
        }
        receiver.close();
    }

    private static Map<String, Object> review(String says, String callbackUrl) {
        Map<String, Object> request = new HashMap<>(script("printf '" + says.replace("\n", "\\n") + "'"));
        request.put("id", "review-42");
        request.put("callbackUrl", callbackUrl);
        return request;
    }

    private static Program.Result verify(String secret, Receiver.Request delivery) {
        return Signatures.verifyWithLibrary(secret, delivery.headers(), delivery.body());
    }

    @Test
    void aTenantsResultVerifiesOnlyWithItsOwnSecretAndNamesIt() throws IOException {
        String betasHook = receiver.url("/hooks/beta");
        WorkerClient alpha = worker.as(ALPHA_TOKEN);
        WorkerClient beta = worker.as(BETA_TOKEN);
        assertThat(alpha.submit(review(ALPHA_SAYS, betasHook))).isEqualTo("review-42");
        assertThat(beta.submit(review(BETA_SAYS, betasHook))).isEqualTo("review-42");
        JsonNode alphas = alpha.awaitDelivered("review-42");
        JsonNode betas = beta.awaitDelivered("review-42");

        Map<String, Receiver.Request> got = receiver.byWebhookId("msg_");
        Receiver.Request fromAlpha = got.get("msg_alpha.review-42");
        Receiver.Request fromBeta = got.get("msg_beta.review-42");
        assertThat(fromAlpha).as("alpha's delivery; got %s", got.keySet()).isNotNull();
        assertThat(fromBeta).as("beta's delivery; got %s", got.keySet()).isNotNull();

        // beta's receiver, holding beta's key, refuses what alpha's dispatch produced and takes its own.
        Program.Result forged = verify(BETA_SECRET, fromAlpha);
        assertThat(forged.exitCode()).as(forged.output()).isEqualTo(1);
        assertThat(forged.stdout()).contains("rejected: No matching signature found");
        Program.Result own = verify(BETA_SECRET, fromBeta);
        assertThat(own.exitCode()).as(own.output()).isZero();
        assertThat(own.stdout()).contains("verified msg_beta.review-42");
        // alpha's result is alpha's: its key verifies it, and the worker's shared one does not.
        assertThat(verify(ALPHA_SECRET, fromAlpha).exitCode()).isZero();
        assertThat(verify(Signatures.TEST_SECRETS.get(0), fromAlpha).exitCode()).isEqualTo(1);

        assertNamesItsTenant(fromAlpha, "alpha", ALPHA_SAYS, alphas);
        assertNamesItsTenant(fromBeta, "beta", BETA_SAYS, betas);
    }

    /** The body is the stored result, whose bytes are what the agent printed, and it names the dispatch and tenant. */
    private static void assertNamesItsTenant(Receiver.Request delivery, String tenant, String says, JsonNode record)
            throws IOException {
        JsonNode body = JSON.readTree(delivery.body());
        assertThat(body.path("dispatchId").asText()).isEqualTo("review-42");
        assertThat(body.path("tenant").asText()).isEqualTo(tenant);
        assertThat(delivery.bodyText()).startsWith("{\"dispatchId\":\"review-42\",\"tenant\":\"" + tenant + "\",");
        byte[] printed = says.getBytes(StandardCharsets.UTF_8);
        assertThat(body.path("stdout").asText()).isEqualTo(says);
        assertThat(body.path("stdoutDigest").path("bytes").asLong()).isEqualTo(printed.length);
        assertThat(body.path("stdoutDigest").path("sha256").asText()).isEqualTo(Digests.sha256(printed));
        assertThat(body).isEqualTo(record.path("result"));
        assertThat(record.path("tenant").asText()).isEqualTo(tenant);
    }

    @Test
    void aDigestAndAGroupsCallbacksNameTheTenantAndAreSignedWithItsSecrets() throws IOException {
        WorkerClient beta = worker.as(BETA_TOKEN);
        Map<String, Object> digest = new HashMap<>(script("echo digest"));
        digest.put("id", "digest-7");
        digest.put("callbackMode", "digest");
        digest.put("callbackUrl", receiver.url("/hooks/digest"));
        beta.submit(digest);
        beta.awaitDelivered("digest-7");

        HttpResponse<String> group = beta.post(
                "/v1/dispatch-groups",
                JSON.writeValueAsString(Map.of(
                        "dispatches",
                        List.of(script("echo one"), script("echo two")),
                        "callbackUrl",
                        receiver.url("/hooks/group"))));
        assertThat(group.statusCode()).as(group.body()).isEqualTo(202);
        String groupId = JSON.readTree(group.body()).path("id").asText();
        await().atMost(Duration.ofSeconds(60))
                .until(() ->
                        receiver.byWebhookId("msg_beta." + groupId + "_final").size() == 1);

        Receiver.Request digestSent = receiver.byWebhookId("msg_beta.digest-7").get("msg_beta.digest-7");
        assertThat(JSON.readTree(digestSent.body()).path("id").asText()).isEqualTo("digest-7");
        assertThat(digestSent.bodyText()).startsWith("{\"id\":\"digest-7\",\"tenant\":\"beta\",");
        Map<String, Receiver.Request> messages = receiver.byWebhookId("msg_beta." + groupId + "_");
        assertThat(messages).containsKey("msg_beta." + groupId + "_final");
        for (Receiver.Request message : messages.values()) {
            assertThat(message.bodyText())
                    .as(message.header("webhook-id"))
                    .contains("\"groupId\":\"" + groupId + "\",\"tenant\":\"beta\",");
        }
        for (Receiver.Request signed : concat(digestSent, messages)) {
            Program.Result result = verify(BETA_SECRET, signed);
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(verify(Signatures.TEST_SECRETS.get(0), signed).exitCode())
                    .isEqualTo(1);
        }
    }

    private static List<Receiver.Request> concat(Receiver.Request first, Map<String, Receiver.Request> rest) {
        List<Receiver.Request> all = new ArrayList<>(List.of(first));
        all.addAll(rest.values());
        return all;
    }

    @Test
    void aTenantHeldToOneHostIsRefusedAnotherAndNothingIsCreated() throws IOException {
        WorkerClient gamma = worker.as(GAMMA_TOKEN);
        Map<String, Object> request = review("gamma\n", receiver.url("/hooks/gamma"));
        request.put("id", "elsewhere-1");

        HttpResponse<String> refused = gamma.dispatch(request);
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JSON.readTree(refused.body());
        assertThat(problem.path("type").asText()).isEqualTo("urn:problem-type:sluice:validation-failed");
        assertThat(problem.path("errors")).hasSize(1);
        assertThat(problem.path("errors").get(0).path("field").asText()).isEqualTo("callbackUrl");
        assertThat(problem.path("errors").get(0).path("detail").asText())
                .isEqualTo("names a host that is not on sluice.tenants.gamma.callback-allowed-hosts, the hosts this"
                        + " tenant's callbacks may go to");

        HttpResponse<String> group = gamma.post(
                "/v1/dispatch-groups",
                JSON.writeValueAsString(
                        Map.of("dispatches", List.of(script("echo one")), "callbackUrl", receiver.url("/hooks/g"))));
        assertThat(group.statusCode()).as(group.body()).isEqualTo(422);
        assertThat(JSON.readTree(group.body())
                        .path("errors")
                        .get(0)
                        .path("field")
                        .asText())
                .isEqualTo("callbackUrl");

        assertThat(gamma.status("/v1/dispatches/elsewhere-1")).isEqualTo(404);
        assertThat(JSON.readTree(gamma.get("/v1/dispatches").body()).path("items"))
                .isEmpty();
        // The same URL from a tenant without a list of its own is taken: the refusal was gamma's list.
        WorkerClient alpha = worker.as(ALPHA_TOKEN);
        request.put("id", "elsewhere-2");
        assertThat(alpha.dispatch(request).statusCode()).isEqualTo(202);
    }

    /**
     * With one secret for every tenant (the worker's), a signature cannot say
     * whose dispatch a result is: the body's tenant does, and a receiver that
     * checks it (docs/api.md, 8.10) refuses alpha's review-42 in beta's place.
     */
    @Test
    void withSharedSecretsTheBodyNamesTheTenantWhoseDispatchItIs() throws IOException {
        try (Receiver shared = Receiver.on("127.0.0.1");
                WorkerProcess sharing = WorkerProcess.start(WorkerProcess.environment(
                        "tenant-callbacks-shared",
                        Map.of("SLUICE_API_TOKENS", "alpha:" + ALPHA_TOKEN + ",beta:" + BETA_TOKEN)))) {
            String hook = shared.url("/hooks/beta");
            sharing.as(ALPHA_TOKEN).submit(review(ALPHA_SAYS, hook));
            sharing.as(BETA_TOKEN).submit(review(BETA_SAYS, hook));
            sharing.as(ALPHA_TOKEN).awaitDelivered("review-42");
            sharing.as(BETA_TOKEN).awaitDelivered("review-42");

            Map<String, Receiver.Request> got = shared.byWebhookId("msg_");
            assertThat(got).containsOnlyKeys("msg_alpha.review-42", "msg_beta.review-42");
            for (Receiver.Request delivery : got.values()) {
                Program.Result result = verify(Signatures.TEST_SECRETS.get(0), delivery);
                assertThat(result.exitCode()).as(result.output()).isZero();
            }
            JsonNode alphas = JSON.readTree(got.get("msg_alpha.review-42").body());
            assertThat(alphas.path("dispatchId").asText()).isEqualTo("review-42");
            assertThat(alphas.path("tenant").asText()).isEqualTo("alpha");
            assertThat(alphas.path("stdout").asText()).isEqualTo(ALPHA_SAYS);
            assertThat(JSON.readTree(got.get("msg_beta.review-42").body())
                            .path("tenant")
                            .asText())
                    .isEqualTo("beta");
        }
    }

    /** Secrets anyone has, secrets that are not secrets, and tokens that could be read two ways stop the start. */
    @Test
    void theWorkerRefusesToStartWithAPublishedSecretAMalformedOneOrAnAmbiguousToken() throws IOException {
        Map<String, Map<String, String>> cases = Map.of(
                "sluice.callback.signing-secrets: secret 1 is an example published in Sluice's documentation,"
                        + " which anyone can sign with; make a secret of your own:"
                        + " echo \"whsec_$(openssl rand -base64 32)\"",
                Map.of("SLUICE_CALLBACK_SIGNING_SECRETS", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"),
                "sluice.tenants.beta.signing-secrets: secret 2 is not valid base64 after whsec_",
                Map.of("SLUICE_TENANTS_BETA_SIGNING_SECRETS", BETA_SECRET + ",whsec_not*base64*at*all"),
                "sluice.api.tokens, entry 2: an entry is a token, or tenant:token with the tenant matching"
                        + " ^[a-z0-9][a-z0-9_-]{0,31}$; a token is at least 16 visible ASCII characters other than"
                        + " ':' (a bare token may not contain ':')",
                Map.of("SLUICE_API_TOKENS", "alpha:" + ALPHA_TOKEN + ",ci:abc:0123456789abcdef"));
        int n = 0;
        for (Map.Entry<String, Map<String, String>> refusal : cases.entrySet()) {
            Map<String, String> env = WorkerProcess.environment("refused-" + n++, refusal.getValue());
            assertThat(WorkerProcess.refusal(env))
                    .contains(refusal.getKey())
                    .doesNotContain("Error occurred while executing task")
                    .doesNotContain("abc:0123456789abcdef")
                    .doesNotContain(BETA_SECRET);
            assertThat(Path.of(env.get("SLUICE_DATA_DIR"), "sluice.mv.db"))
                    .as("the store a refused worker never migrated")
                    .doesNotExist();
        }
    }
}
