package dev.sluice.output;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A secret as a process prints it, made by real encoders (the JDK's base64 and
 * URL encoders, Jackson), and which of the printed bytes carry it and so must
 * come out masked: for base64, the characters made of the secret's bits alone.
 *
 * @param bytes     what the process prints
 * @param mustMask  which of those bytes must be masked
 */
record PrintedSecret(byte[] bytes, boolean[] mustMask) {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonMapper JSON_ASCII =
            JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private static final String BETWEEN_LINES = "\n-- and then --\n";

    /** The ways a process prints a secret. */
    enum Form {
        RAW,
        /** Each line of a multi-line secret, apart from the others. */
        LINES,
        BASE64,
        BASE64_UNPADDED,
        BASE64URL_UNPADDED,
        JSON,
        JSON_ASCII,
        /** HTML form encoding: {@code +} for a space. */
        URL_FORM,
        /** Percent-encoding with {@code %20} for a space. */
        URL_PERCENT
    }

    /**
     * @param before for base64, the bytes encoded with the secret before it (0 to 2 of them set the alignment)
     * @param after  for base64, the bytes encoded with the secret after it
     */
    static PrintedSecret of(Form form, String secret, int minPart, byte[] before, byte[] after) {
        byte[] raw = utf8(secret);
        return switch (form) {
            case RAW -> whole(raw);
            case LINES -> lines(secret, minPart);
            case BASE64 -> base64(Base64.getEncoder(), raw, before, after);
            case BASE64_UNPADDED -> base64(Base64.getEncoder().withoutPadding(), raw, before, after);
            case BASE64URL_UNPADDED -> base64(Base64.getUrlEncoder().withoutPadding(), raw, before, after);
            case JSON -> quoted(json(JSON, secret));
            case JSON_ASCII -> quoted(json(JSON_ASCII, secret));
            case URL_FORM -> whole(utf8(URLEncoder.encode(secret, StandardCharsets.UTF_8)));
            case URL_PERCENT ->
                whole(utf8(URLEncoder.encode(secret, StandardCharsets.UTF_8).replace("+", "%20")));
        };
    }

    private static PrintedSecret whole(byte[] bytes) {
        boolean[] all = new boolean[bytes.length];
        Arrays.fill(all, true);
        return new PrintedSecret(bytes, all);
    }

    /** The lines printed one to a line between other text; each line of at least {@code minPart} bytes must go. */
    private static PrintedSecret lines(String secret, int minPart) {
        StringBuilder text = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (String line : secret.split("\n", -1)) {
            text.append(line).append(BETWEEN_LINES);
            char mark = utf8(line).length >= minPart ? 'x' : '.';
            marks.append(String.valueOf(mark).repeat(utf8(line).length)).append(".".repeat(BETWEEN_LINES.length()));
        }
        boolean[] must = new boolean[marks.length()];
        for (int i = 0; i < must.length; i++) {
            must[i] = marks.charAt(i) == 'x';
        }
        return new PrintedSecret(utf8(text.toString()), must);
    }

    private static PrintedSecret base64(Base64.Encoder encoder, byte[] raw, byte[] before, byte[] after) {
        byte[] blob = new byte[before.length + raw.length + after.length];
        System.arraycopy(before, 0, blob, 0, before.length);
        System.arraycopy(raw, 0, blob, before.length, raw.length);
        System.arraycopy(after, 0, blob, before.length + raw.length, after.length);
        byte[] encoded = encoder.encode(blob);
        boolean[] must = new boolean[encoded.length];
        // Characters whose six bits all come from the secret's bytes.
        int from = (before.length * 8 + 5) / 6;
        int to = (before.length + raw.length) * 8 / 6;
        Arrays.fill(must, from, to, true);
        return new PrintedSecret(encoded, must);
    }

    private static String json(JsonMapper mapper, String secret) {
        try {
            return mapper.writeValueAsString(secret);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JSON string: what is between its quotes must go. */
    private static PrintedSecret quoted(String json) {
        byte[] bytes = utf8(json);
        boolean[] must = new boolean[bytes.length];
        Arrays.fill(must, 1, bytes.length - 1, true);
        return new PrintedSecret(bytes, must);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
