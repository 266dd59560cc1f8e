package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;

/**
 * docs/api.md's worked signature (section 11) stays one a reader can check,
 * and its secret stays one no worker can be deployed with (ADR 0074).
 */
class PublishedExampleTest {

    private static final Pattern EXAMPLE = Pattern.compile(
            "The delivery of `review-43`'s result, as its receiver got it, signed with the\\n"
                    + "secret `(whsec_[^`]+)`.*?\\((\\d+) of them.*?```http\\n(POST .*?)\\n\\n(.*?)\\n```",
            Pattern.DOTALL);

    @Test
    void theDocumentsSignedDeliveryVerifiesWithASecretNoWorkerTakes() throws IOException {
        Matcher example = EXAMPLE.matcher(Files.readString(Path.of("docs/api.md")));
        assertThat(example.find())
                .as("the signed example of docs/api.md, section 11")
                .isTrue();
        String secret = example.group(1);
        byte[] body = example.group(4).getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new HashMap<>();
        for (String line : example.group(3).lines().skip(1).toList()) {
            int colon = line.indexOf(':');
            headers.put(
                    line.substring(0, colon).toLowerCase(Locale.ROOT),
                    line.substring(colon + 1).strip());
        }

        assertThat(body).hasSize(Integer.parseInt(example.group(2)));
        assertThat(example.group(4)).startsWith("{\"dispatchId\":\"review-43\",\"tenant\":\"default\",");
        Receiver.Request delivery = new Receiver.Request(Instant.now(), "POST", "/hooks/dispatch", headers, body);
        assertThat(Signatures.verifies(delivery, secret)).isTrue();
        assertThat(Signatures.verifies(delivery, Signatures.TEST_SECRETS.get(0)))
                .isFalse();

        assertThat(TenantSigners.PUBLISHED).contains(secret);
        assertThatThrownBy(() -> TenantSigners.of(List.of(secret), Map.of()))
                .hasMessageContaining("is an example published in Sluice's documentation");
    }

    private static boolean usable(String secret) {
        try {
            WebhookSigner.key("-", secret, 1);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A secret written in a document is one everybody has: it must be one the
     * worker refuses, and only the worked example may show one that has the
     * form of a secret at all.
     */
    @Test
    void everySecretTheDocumentsShowIsOneTheWorkerRefuses() throws IOException {
        Pattern literal = Pattern.compile("whsec_[A-Za-z0-9+/=_]{16,}");
        List<Path> documents = new ArrayList<>(List.of(Path.of("README.md")));
        for (String tree : List.of("docs", "adr", "deploy", "scripts")) {
            try (Stream<Path> files = Files.walk(Path.of(tree))) {
                files.filter(Files::isRegularFile).forEach(documents::add);
            }
        }
        int found = 0;
        for (Path document : documents) {
            Matcher m = literal.matcher(new String(Files.readAllBytes(document), StandardCharsets.ISO_8859_1));
            while (m.find()) {
                found++;
                assertThat(TenantSigners.PUBLISHED)
                        .as("%s shows %s", document, m.group())
                        .contains(m.group());
                if (usable(m.group())) {
                    assertThat(document)
                            .as("%s shows a secret one could configure; only the worked example may", document)
                            .isEqualTo(Path.of("docs/api.md"));
                }
            }
        }
        assertThat(found).as("the worked example of docs/api.md at least").isPositive();
    }
}
