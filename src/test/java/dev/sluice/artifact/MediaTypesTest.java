package dev.sluice.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Media types from a short table of extensions, else a few magic numbers, else text or bytes. */
class MediaTypesTest {

    @Test
    void aKnownExtensionDecidesWhateverTheContent() {
        assertThat(type("report.JSON", "not json")).isEqualTo("application/json");
        assertThat(type("a/b/diff.patch", "")).isEqualTo("text/x-diff; charset=utf-8");
        assertThat(type("page.html", "<b>")).isEqualTo("text/html; charset=utf-8");
    }

    @Test
    void withoutOneTheFirstBytesDecide() {
        assertThat(MediaTypes.of("image", new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0}, 9))
                .isEqualTo("image/png");
        assertThat(type("doc", "%PDF-1.7")).isEqualTo("application/pdf");
        assertThat(type("README", "plain words, é and 日本")).isEqualTo("text/plain; charset=utf-8");
        assertThat(type("data", "nul\u0000inside")).isEqualTo("application/octet-stream");
        assertThat(MediaTypes.of("bytes", new byte[] {(byte) 0xff, (byte) 0xfe, 'a'}, 3))
                .isEqualTo("application/octet-stream");
        assertThat(type("empty", "")).isEqualTo("text/plain; charset=utf-8");
    }

    @Test
    void aCharacterCutByTheEndOfWhatIsLookedAtIsStillText() {
        byte[] head = ("a".repeat(MediaTypes.SNIFF - 1) + "é").getBytes(StandardCharsets.UTF_8); // é spans 511-512
        assertThat(MediaTypes.of("notes", head, head.length)).isEqualTo("text/plain; charset=utf-8");
    }

    private static String type(String name, String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        return MediaTypes.of(name, bytes, bytes.length);
    }
}
