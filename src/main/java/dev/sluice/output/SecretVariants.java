package dev.sluice.output;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The forms a process commonly prints a secret in (ADR 0030): the value
 * itself; each line of a multi-line value; the stable inner part of its
 * base64 and base64url encodings at each of the three alignments it can have
 * inside a longer encoded blob; JSON string escapes as common encoders write
 * them; and percent-encodings as common URL encoders write them. Forms other
 * than the value itself that are shorter than {@code minPart} bytes are left
 * out: masking them would mask unrelated text.
 */
final class SecretVariants {

    private static final char[] HEX_LOWER = "0123456789abcdef".toCharArray();
    private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();

    /** Characters URL encoders leave as they are, beside letters and digits: RFC 3986, forms, JavaScript, Python. */
    private static final String[] URL_KEPT = {"-._~", ".-*_", "-_.!~*'()", "_.-~/"};

    private SecretVariants() {}

    static List<byte[]> of(String secret, int minPart) {
        Set<String> forms = new LinkedHashSet<>();
        forms.add(secret);
        String[] lines = secret.split("\r?\n", -1);
        if (lines.length > 1) {
            forms.addAll(Arrays.asList(lines));
        }
        byte[] raw = secret.getBytes(StandardCharsets.UTF_8);
        base64(raw, Base64.getEncoder(), forms);
        base64(raw, Base64.getUrlEncoder(), forms);
        json(secret, forms);
        url(raw, forms);
        List<byte[]> variants = new ArrayList<>();
        for (String form : forms) {
            byte[] bytes = form.getBytes(StandardCharsets.UTF_8);
            if (form.equals(secret) ? bytes.length > 0 : bytes.length >= minPart) {
                variants.add(bytes);
            }
        }
        return variants;
    }

    /**
     * The characters of the encoding that depend on the secret's bits alone,
     * with {@code align} unknown bytes before it in the encoded blob and any
     * after it: padded or not, cut or not, the blob holds these.
     */
    private static void base64(byte[] raw, Base64.Encoder encoder, Set<String> forms) {
        for (int align = 0; align < 3; align++) {
            byte[] shifted = new byte[align + raw.length];
            System.arraycopy(raw, 0, shifted, align, raw.length);
            String encoded = encoder.withoutPadding().encodeToString(shifted);
            int from = (align * Byte.SIZE + 5) / 6;
            int to = shifted.length * Byte.SIZE / 6;
            if (from < to) {
                forms.add(encoded.substring(from, to));
            }
        }
    }

    /**
     * As JSON encoders write the value inside a string: minimal escapes
     * (Jackson, JavaScript) with either case of hex, ASCII-only (Python),
     * HTML-safe (Go), with {@code \/} (PHP), and escaped twice (JSON inside a
     * JSON string).
     */
    private static void json(String secret, Set<String> forms) {
        String minimal = JsonEscape.MINIMAL.apply(secret, HEX_LOWER);
        forms.add(minimal);
        forms.add(JsonEscape.MINIMAL.apply(secret, HEX_UPPER));
        forms.add(JsonEscape.ASCII.apply(secret, HEX_LOWER));
        forms.add(JsonEscape.ASCII.apply(secret, HEX_UPPER));
        forms.add(JsonEscape.HTML_SAFE.apply(secret, HEX_LOWER));
        forms.add(JsonEscape.ASCII_SLASH.apply(secret, HEX_LOWER));
        forms.add(JsonEscape.MINIMAL.apply(minimal, HEX_LOWER));
    }

    private enum JsonEscape {
        MINIMAL,
        ASCII,
        HTML_SAFE,
        ASCII_SLASH;

        String apply(String s, char[] hex) {
            StringBuilder out = new StringBuilder(s.length() + 16);
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    case '/' -> out.append(this == ASCII_SLASH ? "\\/" : "/");
                    default -> {
                        if (c < 0x20 || escapes(c)) {
                            out.append("\\u")
                                    .append(hex[c >> 12 & 0xF])
                                    .append(hex[c >> 8 & 0xF])
                                    .append(hex[c >> 4 & 0xF])
                                    .append(hex[c & 0xF]);
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            return out.toString();
        }

        private boolean escapes(char c) {
            return switch (this) {
                case MINIMAL -> false;
                case ASCII, ASCII_SLASH -> c > 0x7E;
                case HTML_SAFE -> c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029';
            };
        }
    }

    /** Percent-encoded by the common encoders, each with a space as {@code %20} and as {@code +}, in both hex cases. */
    private static void url(byte[] raw, Set<String> forms) {
        for (String kept : URL_KEPT) {
            for (char[] hex : new char[][] {HEX_UPPER, HEX_LOWER}) {
                forms.add(percent(raw, kept, hex, false));
                forms.add(percent(raw, kept, hex, true));
            }
        }
    }

    private static String percent(byte[] raw, String kept, char[] hex, boolean plusForSpace) {
        StringBuilder out = new StringBuilder(raw.length * 3);
        for (byte b : raw) {
            int c = b & 0xFF;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || kept.indexOf(c) >= 0)) {
                out.append((char) c);
            } else if (c == ' ' && plusForSpace) {
                out.append('+');
            } else {
                out.append('%').append(hex[c >> 4]).append(hex[c & 0xF]);
            }
        }
        return out.toString();
    }
}
