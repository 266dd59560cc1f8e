package dev.sluice.container.sandbox;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/**
 * An image's /etc/passwd, read only to turn a user's name into its uid (ADR
 * 0055). The first line of the name counts, as for the runtime; a uid field
 * that is not a number within range tells nothing (the runtime would read 0).
 */
final class PasswdFile {

    private final String text;

    PasswdFile(byte[] bytes) {
        this.text = new String(bytes, StandardCharsets.UTF_8);
    }

    /** The uid of {@code name}, empty when no line names it or its uid is not a number. */
    OptionalLong uid(String name) {
        for (String line : text.split("\n")) {
            String[] fields = line.strip().split(":", -1); // lines trimmed, as the runtime does
            if (fields.length >= 3 && fields[0].equals(name)) {
                return ContainerUser.number(fields[2]);
            }
        }
        return OptionalLong.empty();
    }
}
