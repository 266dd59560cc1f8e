package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * No six lines of the main code stand twice, to the letter: a moment that
 * happens in several places has one implementation.
 *
 * <p>Every file under {@code src/main/java} is read as lines, each trimmed. These
 * lines are passed over: blank ones, {@code package} and {@code import} lines,
 * lines made only of punctuation ({@code }}, {@code {}, {@code )},
 * {@code });}, {@code *}, {@code /**}, {@code *}{@code /} and the like), and
 * lines that only open an annotation or name an attribute whose value follows
 * on the next line ({@code @Content(}, {@code content =}), which the formatter
 * puts on lines of their own. Every
 * window of {@link #WINDOW} consecutive remaining lines that also stands
 * somewhere else (in another file, or elsewhere in the same one without
 * overlapping itself) is a repeat; the test fails naming both places, with the
 * file and the first line of each run. Comments and annotations count like
 * code: Javadoc said twice is said twice. Lines alike but for names (the same
 * shape) are not repeats here.
 */
class NoRepeatsTest {

    static final int WINDOW = 6;

    @Test
    void noSixLinesOfTheMainCodeStandTwice() throws IOException {
        Path root = Path.of("src/main/java");
        Map<String, List<String>> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
                files.put(root.relativize(path).toString(), Files.readAllLines(path));
            }
        }
        assertThat(files).hasSizeGreaterThan(100);
        assertThat(repeats(files))
                .as("runs of %d lines that stand twice in src/main/java", WINDOW)
                .isEmpty();
    }

    @Test
    void aRepeatIsFoundAcrossFilesAndWithinOne() {
        List<String> block = List.of(
                "int a = 1;",
                "int b = 2;",
                "int c = 3;",
                "  int d = 4;",
                "}",
                "",
                "int e = 5;",
                "@A(",
                "x =",
                "int f = 6;");
        List<String> one = new ArrayList<>(List.of("package p;", "import x.Y;", "class One {"));
        one.addAll(block);
        one.add("int z = 0;");
        List<String> two = new ArrayList<>(List.of("class Two {", "void m() {"));
        two.addAll(block);
        two.add("int g = 7;");
        two.add("int a = 1;");

        assertThat(repeats(Map.of("One.java", one, "Two.java", two)))
                .containsExactly("One.java:4 ~ Two.java:3 (6 lines: int a = 1; ...)");
        assertThat(repeats(Map.of("One.java", block.subList(0, 9), "Two.java", two)))
                .as("five lines left once the brace, the blank line and the annotation syntax are passed over")
                .isEmpty();
        List<String> twice = new ArrayList<>(block);
        twice.add("int x = 0;");
        twice.addAll(block);
        assertThat(repeats(Map.of("Twice.java", twice)))
                .containsExactly("Twice.java:1 ~ Twice.java:12 (6 lines: int a = 1; ...)");
        assertThat(repeats(Map.of("Same.java", List.of("x();", "x();", "x();", "x();", "x();", "x();", "x();"))))
                .as("a run that only overlaps itself")
                .isEmpty();
    }

    /** The repeats among the files, one line per pair of runs: "a:line ~ b:line (n lines: first line ...)". */
    static List<String> repeats(Map<String, List<String>> files) {
        // Each file's kept lines, with their line numbers.
        Map<String, List<Line>> kept = new TreeMap<>();
        files.forEach((name, lines) -> {
            List<Line> list = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                String text = lines.get(i).trim();
                if (!passedOver(text)) {
                    list.add(new Line(i + 1, text));
                }
            }
            kept.put(name, list);
        });
        Map<String, List<Place>> windows = new LinkedHashMap<>();
        kept.forEach((name, lines) -> {
            for (int i = 0; i + WINDOW <= lines.size(); i++) {
                String key =
                        lines.subList(i, i + WINDOW).stream().map(Line::text).collect(Collectors.joining("\n"));
                windows.computeIfAbsent(key, k -> new ArrayList<>()).add(new Place(name, i));
            }
        });
        // Pairs of places whose windows match, grown into runs: (a, i) and (b, j) matching at
        // (a, i+1) and (b, j+1) are one run, reported once at its start.
        List<String> found = new ArrayList<>();
        for (List<Place> places : windows.values()) {
            for (int x = 0; x < places.size(); x++) {
                for (int y = x + 1; y < places.size(); y++) {
                    Place a = places.get(x);
                    Place b = places.get(y);
                    if (a.file().equals(b.file()) && Math.abs(a.index() - b.index()) < WINDOW) {
                        continue;
                    }
                    List<Line> la = kept.get(a.file());
                    List<Line> lb = kept.get(b.file());
                    if (a.index() > 0
                            && b.index() > 0
                            && la.get(a.index() - 1)
                                    .text()
                                    .equals(lb.get(b.index() - 1).text())) {
                        continue; // not the start of the run
                    }
                    int length = WINDOW;
                    while (a.index() + length < la.size()
                            && b.index() + length < lb.size()
                            && la.get(a.index() + length)
                                    .text()
                                    .equals(lb.get(b.index() + length).text())) {
                        length++;
                    }
                    found.add(String.format(
                            "%s:%d ~ %s:%d (%d lines: %s ...)",
                            a.file(),
                            la.get(a.index()).number(),
                            b.file(),
                            lb.get(b.index()).number(),
                            length,
                            la.get(a.index()).text()));
                }
            }
        }
        return found;
    }

    static boolean passedOver(String text) {
        return text.isEmpty()
                || text.startsWith("import ")
                || text.startsWith("package ")
                || text.chars().allMatch(c -> "{}()[];,*/".indexOf(c) >= 0)
                || text.matches("@[\\w.]+\\(|\\w+ =");
    }

    record Line(int number, String text) {}

    record Place(String file, int index) {}
}
