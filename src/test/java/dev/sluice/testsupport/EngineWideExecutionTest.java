package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The pom's engine-wide failsafe execution names its classes as well as
 * selecting them by tag (so Quarkus builds only their test profiles' applications
 * at discovery), and the side-by-side one leaves out that tag: a class marked
 * {@link EngineWide} that the list missed would run in neither, and one listed
 * but not marked would be filtered out by the tag. The list and the annotation
 * must name the same classes.
 */
class EngineWideExecutionTest {

    private static final Pattern INCLUDE = Pattern.compile("<include>\\*\\*/(\\w+)\\.java</include>");

    @Test
    void theEngineWideExecutionNamesExactlyTheClassesMarkedEngineWide() throws IOException {
        assertThat(listedInPom()).isNotEmpty().isEqualTo(marked());
    }

    private static Set<String> listedInPom() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"));
        int execution = pom.indexOf("<id>engine-wide</id>");
        assertThat(execution).as("the engine-wide execution in pom.xml").isNotNegative();
        String block = pom.substring(execution, pom.indexOf("</execution>", execution));
        Set<String> names = new TreeSet<>();
        Matcher m = INCLUDE.matcher(block);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static Set<String> marked() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path root : List.of(Path.of("src/test/java"), Path.of("src/bench/java"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    if (Files.readAllLines(file).stream().anyMatch(line -> line.equals("@EngineWide"))) {
                        names.add(file.getFileName().toString().replace(".java", ""));
                    }
                }
            }
        }
        return names;
    }
}
