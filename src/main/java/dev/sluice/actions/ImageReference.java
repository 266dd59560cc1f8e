package dev.sluice.actions;

import java.util.regex.Pattern;

/**
 * The syntax of an image reference, as the engine's reference grammar defines
 * it: {@code [domain[:port]/]path[:tag][@digest]}, path components lower case.
 */
final class ImageReference {

    private static final int MAX_NAME = 255;
    private static final Pattern REFERENCE;
    private static final Pattern DOMAIN;

    static {
        String alnum = "[a-z0-9]+";
        String separator = "(?:[._]|__|-+)";
        String pathComponent = alnum + "(?:" + separator + alnum + ")*";
        String domainComponent = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
        String host = "(?:" + domainComponent + "(?:\\." + domainComponent + ")*|\\[[0-9a-fA-F:]+\\])";
        String domain = host + "(?::[0-9]+)?";
        String name = "(?:" + domain + "/)?" + pathComponent + "(?:/" + pathComponent + ")*";
        String tag = "[\\w][\\w.-]{0,127}";
        String digest = "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
        REFERENCE = Pattern.compile("(" + name + ")(?::" + tag + ")?(?:@" + digest + ")?");
        DOMAIN = Pattern.compile(domain);
    }

    private ImageReference() {}

    static boolean isValid(String reference) {
        if (reference.length() > 512) {
            return false;
        }
        var m = REFERENCE.matcher(reference);
        if (!m.matches() || m.group(1).length() > MAX_NAME) {
            return false;
        }
        // As the engine reads it: the first component names a registry only when it
        // has a dot or a port, or is localhost; otherwise it is part of the path, and
        // paths are lower case ("UPPER/case" is refused, "Registry.Example/a" is not).
        int slash = reference.indexOf('/');
        String first = slash < 0 ? "" : reference.substring(0, slash);
        boolean registry = first.contains(".") || first.contains(":") || first.equals("localhost");
        return registry
                ? DOMAIN.matcher(first).matches()
                : !reference.substring(0, m.end(1)).chars().anyMatch(Character::isUpperCase);
    }
}
