package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * No method in {@code run} is longer than {@value #MAX_LINES} lines, counted
 * from the line that names it to its closing brace: a flow longer than that
 * is split into named steps, and the runner into its stages. The sources are
 * read as text: comments and literals are blanked, and each brace whose header
 * ends in a parameter list (not a statement's, an anonymous class's or a
 * record's) opens a method or constructor.
 */
class MethodLengthTest {

    static final int MAX_LINES = 60;

    private static final Path RUN = Path.of("src/main/java/dev/sluice/run");

    private static final Set<String> NOT_METHODS =
            Set.of("if", "for", "while", "switch", "catch", "synchronized", "try", "return", "yield", "throw");

    private static final Pattern THROWS = Pattern.compile("\\)\\s*(throws\\s+[\\w.<>,?\\s]+)?$");
    private static final String FILLER = "            // filler\n";

    private static final Pattern NAME = Pattern.compile("([\\w$.]+)\\s*$");

    /** A method and the lines it spans, both ends included. */
    record Method(String file, String name, int firstLine, int lastLine) {
        int lines() {
            return lastLine - firstLine + 1;
        }

        @Override
        public String toString() {
            return file + " " + name + ": " + lines() + " lines (" + firstLine + "-" + lastLine + ")";
        }
    }

    @Test
    void noMethodInRunIsLongerThanSixtyLines() throws IOException {
        List<Method> methods = new ArrayList<>();
        try (Stream<Path> files = Files.walk(RUN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                methods.addAll(methods(RUN.relativize(file).toString(), Files.readString(file)));
            }
        }
        assertThat(methods).as("methods found in %s", RUN).hasSizeGreaterThan(100);
        assertThat(methods)
                .as("methods longer than %d lines", MAX_LINES)
                .filteredOn(m -> m.lines() > MAX_LINES)
                .isEmpty();
    }

    /** The reading would prove nothing if it missed a long method, or took a statement for one. */
    @Test
    void aPlantedLongMethodIsFoundAndNothingElse() {
        String source = """
                class Planted {
                    /** Braces in comments { and in literals do not count. */
                    Planted(int a) {
                        String s = "{ \\" {";
                        char c = '{';
                    }

                    @SuppressWarnings({"unused"})
                    private static <T> java.util.List<T> planted(
                            int a,
                            int b) throws IllegalStateException {
                        if (a > b) {
                            Runnable r = () -> {
                                new Object() {
                                    @Override
                                    public String toString() {
                                        return "}";
                                    }
                                };
                            };
                        }
                        for (int i = 0; i < a; i++) {
                            try (var x = new java.io.StringReader("")) {
                            } catch (Exception e) {
                            }
                        }
                %s        return switch (a) {
                            case 1 -> { yield null; }
                            default -> null;
                        };
                    }

                    record Inner(int a) {
                        Inner {
                        }
                    }
                }
                """;
        // Sixty lines: allowed.
        assertThat(methods("Planted.java", source.formatted(FILLER.repeat(37))))
                .extracting(Method::name, Method::firstLine, Method::lastLine)
                .containsExactlyInAnyOrder(tuple("Planted", 3, 6), tuple("toString", 16, 18), tuple("planted", 9, 68));
        // Sixty-one: too long.
        assertThat(methods("Planted.java", source.formatted(FILLER.repeat(38))))
                .filteredOn(m -> m.lines() > MAX_LINES)
                .extracting(Method::name, Method::lines)
                .containsExactly(tuple("planted", 61));
    }

    /** Every method and constructor with a body in one source file. */
    static List<Method> methods(String file, String source) {
        char[] code = blanked(source);
        List<Method> methods = new ArrayList<>();
        Deque<Frame> open = new ArrayDeque<>();
        int parens = 0;
        int segment = 0;
        int line = 1;
        for (int i = 0; i < code.length; i++) {
            char c = code[i];
            if (c == '\n') {
                line++;
            } else if (c == '(') {
                parens++;
            } else if (c == ')') {
                parens--;
            } else if (c == ';' && parens == 0) {
                segment = i + 1;
            } else if (c == '{') {
                open.push(new Frame(method(code, segment, i), parens));
                parens = 0;
                segment = i + 1;
            } else if (c == '}') {
                Frame frame = open.pop();
                parens = frame.parens();
                segment = i + 1;
                if (frame.name() != null) {
                    methods.add(
                            new Method(file, frame.name().name(), frame.name().line(), line));
                }
            }
        }
        return methods;
    }

    private record Named(String name, int line) {}

    private record Frame(Named name, int parens) {}

    /** The method a brace at {@code brace} opens, from its header since {@code from}; null for any other block. */
    private static Named method(char[] code, int from, int brace) {
        String header = new String(code, from, brace - from);
        Matcher end = THROWS.matcher(header.stripTrailing());
        if (!end.find()) {
            return null;
        }
        int close = end.start();
        int depth = 0;
        int at = close;
        for (; at >= 0; at--) {
            char c = header.charAt(at);
            depth += c == ')' ? 1 : c == '(' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
        if (at < 0) {
            return null;
        }
        Matcher name = NAME.matcher(header.substring(0, at));
        if (!name.find()) {
            return null;
        }
        String qualified = name.group(1);
        String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
        String before = header.substring(0, name.start()).strip();
        if (simple.isEmpty() || NOT_METHODS.contains(simple) || before.endsWith("new") || before.endsWith("record")) {
            return null;
        }
        int line = 1;
        for (int i = 0; i < from + name.start(1); i++) {
            line += code[i] == '\n' ? 1 : 0;
        }
        return new Named(simple, line);
    }

    /** The source with comments, strings, text blocks and characters turned to spaces; line breaks kept. */
    static char[] blanked(String source) {
        char[] code = source.toCharArray();
        int i = 0;
        while (i < code.length) {
            if (starts(code, i, "//")) {
                i = blank(code, i, indexOf(code, i, "\n"));
            } else if (starts(code, i, "/*")) {
                i = blank(code, i, indexOf(code, i + 2, "*/") + 2);
            } else if (starts(code, i, "\"\"\"")) {
                i = blank(code, i, closing(code, i + 3, "\"\"\"") + 3);
            } else if (code[i] == '"' || code[i] == '\'') {
                i = blank(code, i, closing(code, i + 1, String.valueOf(code[i])) + 1);
            } else {
                i++;
            }
        }
        return code;
    }

    private static boolean starts(char[] code, int at, String text) {
        return at + text.length() <= code.length && new String(code, at, text.length()).equals(text);
    }

    private static int indexOf(char[] code, int from, String text) {
        for (int i = from; i < code.length; i++) {
            if (starts(code, i, text)) {
                return i;
            }
        }
        return code.length;
    }

    /** Where a literal that began before {@code from} ends, escapes skipped. */
    private static int closing(char[] code, int from, String quote) {
        for (int i = from; i < code.length; i++) {
            if (code[i] == '\\') {
                i++;
            } else if (starts(code, i, quote)) {
                return i;
            }
        }
        return code.length;
    }

    private static int blank(char[] code, int from, int to) {
        int end = Math.min(to, code.length);
        for (int i = from; i < end; i++) {
            if (code[i] != '\n') {
                code[i] = ' ';
            }
        }
        return end;
    }
}
