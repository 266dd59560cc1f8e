package dev.sluice.container.sandbox;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Who a dispatch container runs as, settled in numbers before its create (ADR
 * 0055): the engine is always told {@code uid:gid}, so no spelling of root in
 * the image ({@code 00}, {@code 0000:0}, a name its /etc/passwd maps to 0) and
 * no group it names ever reaches the runtime's own lookup. The image's user
 * keeps its uid when that is not 0 (or when the operator allows root for the
 * image); the group is always the configured one, and with an explicit group
 * the runtime adds no supplementary groups from the image's /etc/group. A
 * user that cannot be settled (a name the image does not list, a passwd that
 * cannot be read, a number out of range) runs as the configured user.
 */
public final class ContainerUser {

    /** The value of {@code sluice.container.user} that keeps the image's user as it is, root included. */
    static final String IMAGE = "image";

    /** The largest id the kernel takes; (uid_t) -1 means "unchanged". */
    private static final long MAX_ID = 0xFFFF_FFFEL;

    /** A numeric user and group, as the engine is told them. */
    public record RunAs(long uid, long gid) {

        public String spec() {
            return uid + ":" + gid;
        }

        /** A user the engine was given as {@code uid:gid}; empty for any other spelling. */
        public static Optional<RunAs> parse(String spec) {
            String[] parts = spec == null ? new String[0] : spec.split(":", -1);
            if (parts.length != 2) {
                return Optional.empty();
            }
            OptionalLong uid = number(parts[0]);
            OptionalLong gid = number(parts[1]);
            return uid.isPresent() && gid.isPresent()
                    ? Optional.of(new RunAs(uid.getAsLong(), gid.getAsLong()))
                    : Optional.empty();
        }
    }

    /** How a name is looked up in the image's /etc/passwd: its uid, or empty when it cannot be told. */
    public interface Names {
        OptionalLong uid(String name);
    }

    /** {@code null} when the image's user is kept as it is. */
    private final RunAs configured;

    private ContainerUser(RunAs configured) {
        this.configured = configured;
    }

    /** From {@code sluice.container.user}: {@code uid[:gid]} in numbers, or {@code image}. */
    public static ContainerUser of(String configuredUser) {
        if (IMAGE.equals(configuredUser)) {
            return new ContainerUser(null);
        }
        String[] parts = configuredUser.split(":", -1);
        OptionalLong uid = parts.length <= 2 ? number(parts[0]) : OptionalLong.empty();
        OptionalLong gid = parts.length == 2 ? number(parts[1]) : uid;
        if (uid.isEmpty() || gid.isEmpty()) {
            throw new IllegalArgumentException("sluice.container.user is " + configuredUser
                    + "; it must be uid:gid in numbers, such as 65534:65534 (a name could mean any user"
                    + " in an image's /etc/passwd), or image");
        }
        return new ContainerUser(new RunAs(uid.getAsLong(), gid.getAsLong()));
    }

    /** Whether the image's user is kept as the image says, with no decision of ours. */
    boolean keepsImageUser() {
        return configured == null;
    }

    /**
     * The user to run as given the image's {@code USER} ({@code user[:group]},
     * possibly empty); empty only when the image's user is kept. {@code names}
     * is asked only when the user is a name.
     */
    public Optional<RunAs> decide(String imageUser, boolean rootAllowed, Names names) {
        if (configured == null) {
            return Optional.empty();
        }
        if (imageUser.isEmpty()) {
            return Optional.of(configured);
        }
        int colon = imageUser.indexOf(':');
        String user = colon < 0 ? imageUser : imageUser.substring(0, colon); // the group is never honoured
        OptionalLong uid = digits(user) ? number(user) : names.uid(user);
        if (uid.isEmpty() || (uid.getAsLong() == 0 && !rootAllowed)) {
            return Optional.of(configured);
        }
        return Optional.of(new RunAs(uid.getAsLong(), configured.gid()));
    }

    /** A decimal id within the kernel's range, leading zeros and all; empty otherwise. */
    static OptionalLong number(String text) {
        if (!digits(text)) {
            return OptionalLong.empty();
        }
        String significant = text.replaceFirst("^0+(?=.)", "");
        if (significant.length() > 10) {
            return OptionalLong.empty();
        }
        long value = Long.parseLong(significant);
        return value <= MAX_ID ? OptionalLong.of(value) : OptionalLong.empty();
    }

    private static boolean digits(String text) {
        return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
