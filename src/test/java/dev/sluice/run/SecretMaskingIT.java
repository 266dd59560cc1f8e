package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Digests;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Issue 14, item 4, against the real engine: a process prints its secrets in
 * each common form (raw, split across writes, line by line, base64 and
 * base64url at each alignment, JSON-escaped, URL-encoded), and neither the
 * result, its digests nor the logs endpoint (whole or read by ranges that cut
 * through the forms) shows any of them.
 */
@QuarkusTest
class SecretMaskingIT {

    private static final String TOKEN = "Tok3n \"q\" \\back/slash \u00e9&=+ end";
    private static final String KEY = "line-one-AAAA1111\nline-two-BBBB2222";

    /** busybox's sh, base64, tr and sed, as an agent's tools print a value. */
    private static final String PRINT_EVERY_FORM = String.join(
            "\n",
            "printf 'raw=%s\\n' \"$TOKEN\"",
            "printf 'split=%s' \"${TOKEN%??????????}\"; sleep 0.2; printf '%s\\n' \"${TOKEN#\"${TOKEN%??????????}\"}\"",
            "printf '%s\\n' \"$KEY\" | while IFS= read -r l; do printf 'line: %s\\n' \"$l\"; done",
            "for p in '' x xy; do",
            "  printf 'b64=%s\\n' \"$(printf '%s%s' \"$p\" \"$TOKEN\" | base64 -w0)\"",
            "  printf 'b64url=%s\\n' \"$(printf '%s%s!' \"$p\" \"$TOKEN\" | base64 -w0 | tr '+/' '-_' | tr -d '=')\"",
            "done",
            "printf 'json={\"t\":\"%s\"}\\n' \"$(printf '%s' \"$TOKEN\" | sed 's/\\\\/\\\\\\\\/g; s/\"/\\\\\"/g')\"",
            "printf 'jsonascii={\"t\":\"%s\"}\\n' "
                    + "\"$(printf '%s' \"$TOKEN\" | sed 's/\\\\/\\\\\\\\/g; s/\"/\\\\\"/g; s/\u00e9/\\\\u00e9/g')\"",
            "printf 'url=?t=%s\\n' \"$(printf '%s' \"$TOKEN\" | sed 's/+/%2B/g; s/ /+/g; s/\"/%22/g; s/\\\\/%5C/g; "
                    + "s|/|%2F|g; s/\u00e9/%C3%A9/g; s/&/%26/g; s/=/%3D/g')\"",
            "printf 'err=%s\\n' \"$TOKEN\" >&2",
            "printf '%s' \"$TOKEN\" | base64 >&2");

    @Test
    void noFormOfASecretShowsInTheResultTheDigestsOrTheLogs() throws Exception {
        Map<String, Object> body = new HashMap<>(script(PRINT_EVERY_FORM));
        body.put("secrets", Map.of("TOKEN", TOKEN, "KEY", KEY));
        String id = submit(body);
        JsonPath r = awaitTerminal(id);
        assertThat(r.getString("result.status")).isEqualTo("succeeded");

        String stdout = r.getString("result.stdout");
        String stderr = r.getString("result.stderr");
        String stars = "*".repeat(TOKEN.getBytes(StandardCharsets.UTF_8).length);
        // The process did print every form, each now masked.
        assertThat(stdout)
                .contains("raw=" + stars + "\n", "split=" + stars + "\n")
                .contains("line: *****************\nline: *****************\n")
                .contains("json={\"t\":\"" + "*".repeat(jsonEscaped().getBytes(StandardCharsets.UTF_8).length))
                .contains("url=?t="
                        + "*"
                                .repeat(URLEncoder.encode(TOKEN, StandardCharsets.UTF_8)
                                        .length()) + "\n");
        assertThat(stdout.lines().filter(l -> l.startsWith("b64"))).hasSize(6);
        assertThat(stderr).startsWith("err=" + stars + "\n");
        assertShowsNone(stdout, "stdout");
        assertShowsNone(stderr, "stderr");
        assertShowsNone(r.prettify(), "the record");

        String log = log(id, "stdout");
        assertThat(log).isEqualTo(stdout);
        assertThat(log(id, "stderr")).isEqualTo(stderr);
        assertThat(r.getString("result.stdoutDigest.sha256")).isEqualTo(sha256(log));
        assertThat(r.getString("result.stderrDigest.sha256")).isEqualTo(sha256(stderr));
        // Ranges whose edges fall inside the forms show exactly the masked log's bytes.
        byte[] whole = log.getBytes(StandardCharsets.UTF_8);
        for (int offset = 0; offset < whole.length; offset += 7) {
            int limit = 11;
            byte[] range = given().queryParam("offset", offset)
                    .queryParam("limit", limit)
                    .get("/v1/dispatches/" + id + "/logs/stdout")
                    .then()
                    .statusCode(200)
                    .extract()
                    .asByteArray();
            byte[] expected = Arrays.copyOfRange(whole, offset, Math.min(whole.length, offset + limit));
            assertThat(range).as("range at %d", offset).isEqualTo(expected);
        }
    }

    private static String log(String id, String stream) {
        return given().get("/v1/dispatches/" + id + "/logs/" + stream)
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    /** No form of either secret, nor any six characters in a row of one. */
    private static void assertShowsNone(String text, String where) throws Exception {
        for (String form : forms()) {
            for (int i = 0; i + 6 <= form.length(); i++) {
                assertThat(text).as("%s shows part of %s", where, form).doesNotContain(form.substring(i, i + 6));
            }
        }
    }

    private static List<String> forms() throws Exception {
        List<String> forms =
                new ArrayList<>(List.of(TOKEN, jsonEscaped(), jsonEscaped().replace("\u00e9", "\\u00e9")));
        forms.addAll(KEY.lines().toList());
        forms.add(URLEncoder.encode(TOKEN, StandardCharsets.UTF_8));
        byte[] raw = TOKEN.getBytes(StandardCharsets.UTF_8);
        for (int align = 0; align < 3; align++) {
            byte[] blob = new byte[align + raw.length];
            System.arraycopy(raw, 0, blob, align, raw.length);
            // The characters made of the secret's bits alone.
            int from = (align * 8 + 5) / 6;
            int to = blob.length * 8 / 6;
            forms.add(Base64.getEncoder().encodeToString(blob).substring(from, to));
            forms.add(Base64.getUrlEncoder().encodeToString(blob).substring(from, to));
        }
        return forms;
    }

    private static String jsonEscaped() throws Exception {
        String quoted = new ObjectMapper().writeValueAsString(TOKEN);
        return quoted.substring(1, quoted.length() - 1);
    }

    private static String sha256(String text) {
        return Digests.sha256(text.getBytes(StandardCharsets.UTF_8));
    }
}
