package dev.sluice.workspace;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The path rules of a workspace entry, read lexically: relative, no {@code ..}
 * segment, no NUL, at most a bound in bytes. {@code .} and empty segments are
 * dropped, so {@code ./src//A.java} is {@code src/A.java}, as tar writes it.
 */
final class WorkspacePaths {

    private WorkspacePaths() {}

    /**
     * The normalized path, or a {@link WorkspaceRefused} for {@code field}
     * naming why; empty for the workspace's root itself.
     */
    static String normalize(String field, String path, int maxBytes) {
        if (path == null || path.isEmpty()) {
            throw new WorkspaceRefused(field, "must be a relative path");
        }
        if (path.indexOf('\0') >= 0) {
            throw new WorkspaceRefused(field, "must not contain NUL characters");
        }
        if (path.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new WorkspaceRefused(field, "is longer than " + maxBytes + " bytes");
        }
        if (path.startsWith("/")) {
            throw new WorkspaceRefused(field, "must be relative, not absolute");
        }
        StringBuilder normal = new StringBuilder(path.length());
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                throw new WorkspaceRefused(field, "must not contain ..");
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                if (!normal.isEmpty()) {
                    normal.append('/');
                }
                normal.append(segment);
            }
        }
        return normal.toString();
    }

    /**
     * Where a symbolic link at {@code path} with {@code target} leads,
     * resolved against the workspace's root; a target that is absolute or
     * climbs out of the root is refused: inside the container it would lead
     * out of the workspace.
     */
    static String linkTarget(String field, String path, String target, int maxBytes) {
        if (target == null || target.isEmpty() || target.indexOf('\0') >= 0) {
            throw new WorkspaceRefused(field, "is a link without a target");
        }
        if (target.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new WorkspaceRefused(field, "is a link whose target is longer than " + maxBytes + " bytes");
        }
        if (target.startsWith("/")) {
            throw new WorkspaceRefused(field, "is a link to an absolute path, outside the workspace");
        }
        Deque<String> at = new ArrayDeque<>();
        int slash = path.lastIndexOf('/');
        if (slash > 0) {
            for (String segment : path.substring(0, slash).split("/")) {
                at.addLast(segment);
            }
        }
        for (String segment : target.split("/")) {
            if (segment.equals("..")) {
                if (at.isEmpty()) {
                    throw new WorkspaceRefused(field, "is a link that points outside the workspace");
                }
                at.removeLast();
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                at.addLast(segment);
            }
        }
        return String.join("/", at);
    }

    /** The permission bits of a mode given in octal, such as {@code 0755}; setuid, setgid and sticky refused. */
    static int mode(String field, String mode) {
        if (mode == null) {
            return 0644;
        }
        if (!mode.matches("[0-7]{1,4}")) {
            throw new WorkspaceRefused(field, "must be permission bits in octal, such as 0644");
        }
        int bits = Integer.parseInt(mode, 8);
        if ((bits & ~0777) != 0) {
            throw new WorkspaceRefused(field, "must be permission bits only: no setuid, setgid or sticky bit");
        }
        return bits;
    }
}
