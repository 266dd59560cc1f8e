package dev.sluice.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Javadoc of a type and of its methods, read from the type's source file:
 * what the compiled class no longer carries. It reads only what a config
 * interface holds (types, annotations, methods without parameters), so it
 * blanks comments and literals out of a copy of the source and finds
 * declarations and braces in that copy, where no comment or string can
 * mislead it.
 */
final class JavadocSource {

    /** Where a declaration starts in the source, and the Javadoc before it, if any. */
    record Declaration(int offset, Optional<String> javadoc) {}

    private final Path file;
    private final String text;
    /** {@link #text} with every comment and literal replaced by spaces: same length, same offsets. */
    private final String code;
    /** Where each doc comment starts and ends in {@link #text}. */
    private final List<int[]> docComments = new ArrayList<>();

    private JavadocSource(Path file, String text) {
        this.file = file;
        this.text = text;
        this.code = blank(text, docComments);
    }

    /** The source of a top-level type (and so of the types nested in it) under a source root. */
    static JavadocSource of(Path sources, Class<?> type) throws IOException {
        Class<?> top = type;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        Path file = sources.resolve(top.getName().replace('.', '/') + ".java");
        return new JavadocSource(file, Files.readString(file));
    }

    /** The declaration of a type, top-level or nested in this file. */
    Declaration type(Class<?> type) {
        return declaration(typeMatch(type).start());
    }

    /** The declaration of a method without parameters that the type itself declares. */
    Declaration method(Class<?> type, String name) {
        int[] body = body(type);
        Matcher m = Pattern.compile("\\b" + Pattern.quote(name) + "\\s*\\(\\s*\\)\\s*;")
                .matcher(code)
                .region(body[0], body[1]);
        while (m.find()) {
            if (depth(body[0], m.start()) == 1) {
                return declaration(m.start());
            }
        }
        throw new IllegalStateException("no declaration of " + name + "() in " + type.getSimpleName() + " in " + file);
    }

    /** The offsets of the type's body, from its opening brace to its closing one. */
    private int[] body(Class<?> type) {
        int open = code.indexOf('{', typeMatch(type).end());
        int close = closingBrace(code, open);
        if (close < 0) {
            throw new IllegalStateException("the body of " + type.getSimpleName() + " never closes in " + file);
        }
        return new int[] {open, close};
    }

    /** The brace that closes the one at {@code open}, counting those nested in it; -1 when none does. */
    static int closingBrace(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The declaration of the type, looked for inside each enclosing type's body in turn. */
    private Matcher typeMatch(Class<?> type) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            chain.add(0, c);
        }
        int from = 0;
        int to = code.length();
        Matcher found = null;
        for (Class<?> c : chain) {
            found = Pattern.compile("\\b(?:interface|class|enum|record)\\s+" + c.getSimpleName() + "\\b")
                    .matcher(code)
                    .region(from, to);
            if (!found.find()) {
                throw new IllegalStateException("no declaration of " + c.getSimpleName() + " in " + file);
            }
            if (c != type) {
                int[] body = body(c);
                from = body[0];
                to = body[1];
            }
        }
        return found;
    }

    /** Braces open at {@code at}, counted from {@code from}. */
    private int depth(int from, int at) {
        int depth = 0;
        for (int i = from; i < at; i++) {
            char c = code.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        }
        return depth;
    }

    /**
     * The declaration's Javadoc: the last doc comment between the end of the
     * previous member (a semicolon or a brace, not counting those inside an
     * annotation's parentheses) and the declaration.
     */
    private Declaration declaration(int at) {
        int i = at - 1;
        for (int parentheses = 0; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == ')') {
                parentheses++;
            } else if (c == '(') {
                parentheses--;
            } else if (parentheses == 0 && (c == ';' || c == '{' || c == '}')) {
                break;
            }
        }
        Optional<String> javadoc = Optional.empty();
        for (int[] comment : docComments) {
            if (comment[0] > i && comment[1] <= at) {
                javadoc = Optional.of(text.substring(comment[0] + 3, comment[1] - 2));
            }
        }
        return new Declaration(at, javadoc);
    }

    /** Comments, string, text-block and character literals replaced by spaces. */
    static String blankCommentsAndLiterals(String source) {
        return blank(source, new ArrayList<>());
    }

    /** The source blanked, noting where its doc comments are. */
    private static String blank(String source, List<int[]> docComments) {
        StringBuilder out = new StringBuilder(source);
        int i = 0;
        while (i < source.length()) {
            int end;
            if (source.startsWith("//", i)) {
                end = indexOrEnd(source, "\n", i);
            } else if (source.startsWith("/*", i)) {
                end = indexOrEnd(source, "*/", i + 2) + 2;
                if (source.startsWith("/**", i) && end <= source.length() && end - i >= 5) {
                    docComments.add(new int[] {i, end});
                }
            } else if (source.startsWith("\"\"\"", i)) {
                end = indexOrEnd(source, "\"\"\"", i + 3) + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                end = literalEnd(source, i);
            } else {
                i++;
                continue;
            }
            end = Math.min(end, source.length());
            for (int j = i; j < end; j++) {
                if (out.charAt(j) != '\n') {
                    out.setCharAt(j, ' ');
                }
            }
            i = end;
        }
        return out.toString();
    }

    private static int indexOrEnd(String source, String what, int from) {
        int at = source.indexOf(what, from);
        return at < 0 ? source.length() : at;
    }

    /** Just past the closing quote of the literal opening at {@code start}. */
    private static int literalEnd(String source, int start) {
        char quote = source.charAt(start);
        for (int i = start + 1; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote || c == '\n') {
                return i + 1;
            }
        }
        return source.length();
    }
}
