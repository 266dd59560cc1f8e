package dev.sluice.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An artifact's media type (docs/api.md, section 7.8), kept simple on
 * purpose: a short table of extensions first; without a known extension, a
 * few magic numbers in the first bytes; then text when those bytes are UTF-8
 * without NULs, else {@code application/octet-stream}. The same name and
 * bytes always give the same type, so it is computed again when served.
 */
public final class MediaTypes {

    /** How many of the first bytes are looked at. */
    public static final int SNIFF = 512;

    static final String TEXT = "text/plain; charset=utf-8";
    static final String BINARY = "application/octet-stream";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("txt", TEXT),
            Map.entry("log", TEXT),
            Map.entry("md", "text/markdown; charset=utf-8"),
            Map.entry("csv", "text/csv; charset=utf-8"),
            Map.entry("tsv", "text/tab-separated-values; charset=utf-8"),
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("xml", "application/xml"),
            Map.entry("json", "application/json"),
            Map.entry("jsonl", "application/jsonl"),
            Map.entry("ndjson", "application/x-ndjson"),
            Map.entry("yaml", "application/yaml"),
            Map.entry("yml", "application/yaml"),
            Map.entry("diff", "text/x-diff; charset=utf-8"),
            Map.entry("patch", "text/x-diff; charset=utf-8"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"),
            Map.entry("tgz", "application/gzip"),
            Map.entry("tar", "application/x-tar"));

    /** Magic numbers, looked for in this order. */
    private static final List<Map.Entry<byte[], String>> MAGIC = List.of(
            Map.entry(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, "image/png"),
            Map.entry(new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff}, "image/jpeg"),
            Map.entry(new byte[] {'G', 'I', 'F', '8'}, "image/gif"),
            Map.entry(new byte[] {'%', 'P', 'D', 'F', '-'}, "application/pdf"),
            Map.entry(new byte[] {'P', 'K', 3, 4}, "application/zip"),
            Map.entry(new byte[] {0x1f, (byte) 0x8b}, "application/gzip"));

    private MediaTypes() {}

    /** The type of a file named {@code name} whose first bytes are {@code head[0..length)}. */
    public static String of(String name, byte[] head, int length) {
        String base = name.substring(name.lastIndexOf('/') + 1);
        int dot = base.lastIndexOf('.');
        if (dot > 0) {
            String known = BY_EXTENSION.get(base.substring(dot + 1).toLowerCase(Locale.ROOT));
            if (known != null) {
                return known;
            }
        }
        byte[] bytes = Arrays.copyOf(head, Math.min(length, SNIFF));
        for (Map.Entry<byte[], String> magic : MAGIC) {
            if (starts(bytes, magic.getKey())) {
                return magic.getValue();
            }
        }
        return text(bytes, length > SNIFF) ? TEXT : BINARY;
    }

    /** The type of the kept file of artifact {@code name}: the same as when it was kept. */
    public static String of(String name, Path file) throws IOException {
        byte[] head = new byte[SNIFF + 1];
        int length = 0;
        try (InputStream in = Files.newInputStream(file)) {
            length = in.readNBytes(head, 0, head.length);
        }
        return of(name, head, length);
    }

    private static boolean starts(byte[] bytes, byte[] magic) {
        return bytes.length >= magic.length && Arrays.equals(bytes, 0, magic.length, magic, 0, magic.length);
    }

    /** UTF-8 without NULs; a sequence cut by the end of what was looked at still counts when more follows. */
    private static boolean text(byte[] bytes, boolean more) {
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        int end = bytes.length;
        if (more) {
            int back = 0;
            while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1] & 0xc0) == 0x80) {
                back++;
            }
            if (end - back - 1 >= 0 && (bytes[end - back - 1] & 0xc0) == 0xc0) {
                end = end - back - 1;
            }
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, end));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
