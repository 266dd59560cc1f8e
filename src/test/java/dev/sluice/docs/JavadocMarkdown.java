package dev.sluice.docs;

/**
 * A Javadoc comment as one line of Markdown, to sit in a table cell: its
 * description only (block tags such as {@code @see} are left out), {@code {@code x}}
 * as code, {@code {@link x}} and {@code {@literal x}} as their plain text, HTML
 * tags dropped and its common entities decoded, pipes escaped so that the
 * cell ends where the table says, and asterisks so that none starts emphasis.
 */
final class JavadocMarkdown {

    private JavadocMarkdown() {}

    /** The Markdown of a comment's body, the text between its opening {@code /**} and its closing. */
    static String of(String comment) {
        StringBuilder description = new StringBuilder();
        for (String line : comment.split("\n")) {
            String stripped = line.strip();
            stripped = stripped.startsWith("*") ? stripped.substring(1).strip() : stripped;
            if (stripped.startsWith("@")) {
                break;
            }
            description.append(stripped).append(' ');
        }
        return inline(description.toString()).replaceAll("\\s+", " ").strip();
    }

    /** Inline tags rewritten; HTML and entities handled outside code only, where they are HTML. */
    private static String inline(String text) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int tag = text.indexOf("{@", i);
            if (tag < 0) {
                out.append(prose(text.substring(i)));
                break;
            }
            out.append(prose(text.substring(i, tag)));
            int close = JavadocSource.closingBrace(text, tag);
            if (close < 0) {
                throw new IllegalArgumentException("an inline tag that never closes: " + text.substring(tag));
            }
            String inner = text.substring(tag + 2, close);
            int space = inner.indexOf(' ');
            String name = space < 0 ? inner : inner.substring(0, space);
            String content = space < 0 ? "" : inner.substring(space + 1).strip();
            out.append(
                    switch (name) {
                        case "code" -> code(content);
                        case "link", "linkplain" -> link(content);
                        default -> content.replace("|", "\\|");
                    });
            i = close + 1;
        }
        return out.toString();
    }

    private static String prose(String text) {
        return text.replaceAll("<[/]?[a-zA-Z][^>]*>", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
                .replace("|", "\\|")
                .replace("*", "\\*");
    }

    /** A code span; a backtick inside it takes a longer fence. */
    private static String code(String content) {
        String fence = content.contains("`") ? "`` " : "`";
        String closing = content.contains("`") ? " ``" : "`";
        return fence + content.replace("|", "\\|") + closing;
    }

    /** {@code {@link Type#member() label}}: the label if there is one, else the reference as text. */
    private static String link(String content) {
        int space = content.indexOf(' ');
        if (space >= 0) {
            return content.substring(space + 1).strip().replace("|", "\\|");
        }
        String reference = content.startsWith("#") ? content.substring(1) : content.replace('#', '.');
        return reference.replace("|", "\\|");
    }
}
