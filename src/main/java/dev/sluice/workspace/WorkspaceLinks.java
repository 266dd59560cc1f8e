package dev.sluice.workspace;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a workspace's symbolic links lead once all of them are in place. A
 * target read alone can look inside and still leave: with {@code d/l -> ..},
 * {@code x -> d/l/../..} is lexically the workspace's root, but the kernel
 * follows {@code d/l} to the root first and the two {@code ..} climb out of it.
 * Each link is followed here as the kernel follows it, through every other
 * link of the workspace: those placed before it and those placed after, since
 * the container sees them all at once. A component that names nothing is read
 * lexically, as a directory someone could make there would be.
 *
 * <p>Each link's destination is worked out once and remembered, so the check
 * costs about the total length of the targets; a chain more than
 * {@value #MAX_FOLLOWS} links deep is refused (the kernel gives up there too,
 * with ELOOP), and a loop leads nowhere, so it is no way out.
 */
final class WorkspaceLinks {

    /** The kernel's own limit on links followed in one lookup (MAXSYMLINKS). */
    static final int MAX_FOLLOWS = 40;

    private record Link(String field, String path, String target) {}

    /** An entry of the tree: a directory, a file, or a link with its target. */
    private static final class Node {
        final Node parent;
        final Map<String, Node> children = new HashMap<>();
        Link link;

        Node(Node parent) {
            this.parent = parent;
        }
    }

    /**
     * A place a path leads to: a node of the tree, and below it {@code beyond}
     * components that name nothing in the workspace; {@code follows} links
     * were followed to get there.
     */
    private record Place(Node node, int beyond, int follows) {}

    /** A link that climbs out of the workspace, or leads through one that does. */
    private static final Place OUT = new Place(null, -1, 0);
    /** A link on a loop: the kernel stops it with ELOOP, and it leads nowhere. */
    private static final Place LOOP = new Place(null, -2, 0);
    /** Being followed: met again while it is, it is on a loop. */
    private static final Place FOLLOWING = new Place(null, -3, 0);

    private final List<Link> links = new ArrayList<>();

    /** A symbolic link at the normalized {@code path}, named {@code field} in a refusal. */
    void add(String field, String path, String target) {
        links.add(new Link(field, path, target));
    }

    /**
     * Refuses, naming it, the first link (in the order they were placed)
     * whose target leads out of the workspace through the tree of {@code
     * paths}, every entry's normalized path, links included.
     */
    void check(Collection<String> paths) {
        if (links.isEmpty()) {
            return;
        }
        Node root = new Node(null);
        for (String path : paths) {
            nodeOf(root, path);
        }
        for (Link link : links) {
            nodeOf(root, link.path()).link = link;
        }
        Map<Node, Place> destinations = new IdentityHashMap<>();
        for (Link link : links) {
            Node node = nodeOf(root, link.path());
            if (follow(node, root, destinations, link, 1) == OUT) {
                throw new WorkspaceRefused(
                        link.field(), "is a link that leads outside the workspace through the links it passes");
            }
        }
    }

    /** Where the link at {@code node} leads, remembered in {@code destinations}. */
    private Place follow(Node node, Node root, Map<Node, Place> destinations, Link checked, int depth) {
        Place known = destinations.get(node);
        if (known == FOLLOWING) {
            return LOOP;
        }
        if (known != null) {
            return known;
        }
        // Nested this deep, it has followed more links than the kernel would: no recursion without end.
        if (depth > MAX_FOLLOWS) {
            throw tooLong(checked);
        }
        destinations.put(node, FOLLOWING);
        Place place = walk(new Place(node.parent, 0, 0), node.link.target(), root, destinations, checked, depth);
        destinations.put(node, place);
        return place;
    }

    private static WorkspaceRefused tooLong(Link checked) {
        return new WorkspaceRefused(
                checked.field(), "is a link that leads through more than " + MAX_FOLLOWS + " links");
    }

    /** Where {@code target} leads from the directory {@code from}, following the links it names on the way. */
    private Place walk(Place from, String target, Node root, Map<Node, Place> destinations, Link checked, int depth) {
        Node at = from.node();
        int beyond = from.beyond();
        int follows = from.follows();
        for (String segment : target.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (beyond > 0) {
                    beyond--;
                } else if (at == root) {
                    return OUT;
                } else {
                    at = at.parent;
                }
                continue;
            }
            Node next = beyond > 0 ? null : at.children.get(segment);
            if (next == null) {
                beyond++;
            } else if (next.link == null) {
                at = next;
            } else {
                Place through = follow(next, root, destinations, checked, depth + 1);
                if (through == OUT || through == LOOP) {
                    return through;
                }
                at = through.node();
                beyond = through.beyond();
                follows += 1 + through.follows();
                if (follows > MAX_FOLLOWS) {
                    throw tooLong(checked);
                }
            }
        }
        return new Place(at, beyond, follows);
    }

    private static Node nodeOf(Node root, String path) {
        Node node = root;
        for (String segment : path.split("/")) {
            Node parent = node;
            node = node.children.computeIfAbsent(segment, s -> new Node(parent));
        }
        return node;
    }
}
