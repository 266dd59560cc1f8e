package dev.sluice.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.smallrye.config.EnvConfigSource;

/**
 * docs/configuration.md says what the worker reads: its generated part is the
 * one the config interfaces make now, every environment name in it sets its
 * property by SmallRye's own reading, and the hand-written part lists only
 * settings that no interface has.
 */
class ConfigurationDocumentTest {

    /** Set to true to write the generated part over the one in docs/configuration.md. */
    static final String REWRITE = "sluice.configuration.write";

    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| `([^`]+)` \\|");

    @Test
    void theGeneratedPartIsWhatTheConfigInterfacesSay() throws IOException {
        String generated = ConfigurationDocument.generate();
        String document = Files.readString(ConfigurationDocument.DOCUMENT);
        if (Boolean.getBoolean(REWRITE)) {
            document = ConfigurationDocument.splice(document, generated);
            Files.writeString(ConfigurationDocument.DOCUMENT, document);
        }
        assertThat(ConfigurationDocument.current(document))
                .as(
                        "the settings in %s differ from the @ConfigMapping interfaces; if the change is meant, "
                                + "rewrite them with ./mvnw -o test -Dtest=ConfigurationDocumentTest -D%s=true and commit",
                        ConfigurationDocument.DOCUMENT, REWRITE)
                .isEqualTo(generated);
    }

    @Test
    void everyInterfaceIsFoundAndEverySettingDescribed() throws IOException {
        List<ConfigMappingReader.Mapping> mappings = ConfigMappingReader.mappings();
        assertThat(mappings).hasSize(ConfigMappingReader.configInterfaces().size());
        assertThat(mappings.size()).isGreaterThanOrEqualTo(17);
        List<String> properties = new ArrayList<>();
        for (ConfigMappingReader.Mapping mapping : mappings) {
            assertThat(mapping.settings()).as(mapping.prefix()).isNotEmpty();
            for (ConfigMappingReader.Setting setting : mapping.settings()) {
                assertThat(setting.property()).startsWith(mapping.prefix() + ".");
                assertThat(setting.description()).as(setting.property()).isNotBlank();
                properties.add(setting.property());
            }
        }
        assertThat(properties)
                .doesNotHaveDuplicates()
                .contains(
                        "sluice.output.stdout-cap",
                        "sluice.callback.retry-schedule",
                        "sluice.container.none-network",
                        "sluice.worker.drain-period");
    }

    /** Each environment name of the document, read back by SmallRye's environment source, gives its property. */
    @Test
    void everyEnvironmentNameSetsItsProperty() throws IOException {
        Map<String, String> rows = rows(Files.readString(ConfigurationDocument.DOCUMENT));
        assertThat(rows).containsEntry("sluice.output.stdout-cap", "SLUICE_OUTPUT_STDOUT_CAP");
        rows.forEach((property, environment) -> {
            String path = property.replace("<key>", "k").replace("<n>", "0");
            String name = environment.replace("<KEY>", "K").replace("<N>", "0");
            assertThat(new EnvConfigSource(Map.of(name, "set"), 300).getValue(path))
                    .as("%s sets %s", environment, property)
                    .isEqualTo("set");
        });
    }

    @Test
    void theHandWrittenPartNamesOnlySettingsNoInterfaceHas() throws IOException {
        String document = Files.readString(ConfigurationDocument.DOCUMENT);
        String current = ConfigurationDocument.current(document);
        Set<String> handWritten = rows(document.replace(current, "")).keySet();
        Set<String> generated = new TreeSet<>(rows(current).keySet());
        assertThat(handWritten).contains("sluice.data-dir", "sluice.log.json");
        assertThat(handWritten).doesNotContainAnyElementsOf(generated);
    }

    @Test
    void environmentNamesFollowSmallRyesRule() {
        assertThat(SettingNames.environment("sluice.api.max-request-size")).isEqualTo("SLUICE_API_MAX_REQUEST_SIZE");
        assertThat(SettingNames.environment("sluice.a.*.leaf")).isEqualTo("SLUICE_A_<KEY>_LEAF");
        assertThat(SettingNames.environment("sluice.a[*].leaf")).isEqualTo("SLUICE_A_<N>__LEAF");
        assertThat(SettingNames.property("sluice.a[*].b.*")).isEqualTo("sluice.a[<n>].b.<key>");
    }

    @Test
    void javadocBecomesOneLineOfMarkdown() {
        String comment = """
                 * Where {@code <out-dir>/artifacts/} goes, see {@link #noneNetwork()} and
                 * {@link Other#thing() the other}; a|b {@code {"x": 1}} &lt;p&gt;<p>
                 * next.
                 *
                 * @see Somewhere
                """;
        assertThat(JavadocMarkdown.of(comment))
                .isEqualTo(
                        "Where `<out-dir>/artifacts/` goes, see noneNetwork() and the other; a\\|b `{\"x\": 1}` <p> next.");
    }

    @Test
    void javadocIsFoundPastAnnotationsCommentsAndStrings() throws IOException {
        JavadocSource source = JavadocSource.of(Path.of("src/test/java"), Fixture.Inner.class);
        assertThat(source.type(Fixture.class).javadoc())
                .hasValueSatisfying(j -> assertThat(JavadocMarkdown.of(j))
                        .isEqualTo("A fixture: its members are found by name, past what could mislead a reader."));
        assertThat(source.method(Fixture.class, "tricky").javadoc())
                .hasValueSatisfying(
                        j -> assertThat(JavadocMarkdown.of(j)).isEqualTo("This one, past its annotations."));
        assertThat(source.method(Fixture.class, "other").javadoc())
                .hasValueSatisfying(j -> assertThat(JavadocMarkdown.of(j))
                        .isEqualTo("Not this one; `{x}` under /v1/\\*\\* or `/v1/**`."));
        assertThat(source.method(Fixture.Inner.class, "tricky").javadoc())
                .hasValueSatisfying(j -> assertThat(JavadocMarkdown.of(j)).isEqualTo("The inner one."));
        assertThat(source.method(Fixture.class, "bare").javadoc()).isEmpty();
    }

    /** A fixture: its members are found by name, past what could mislead a reader. */
    interface Fixture {
        // tricky(); in a comment, and "a string
        /** Not this one; {@code {x}} under /v1/** or {@code /v1/**}. */
        @SuppressWarnings({"tricky();", "a}b"})
        int other();

        /** This one, past its annotations. */
        @Deprecated(since = "tricky();")
        @SuppressWarnings("x")
        int tricky();

        int bare();

        /** Holds a method of the same name. */
        interface Inner {
            /** The inner one. */
            int tricky();
        }
    }

    /** Property and environment name of every settings row in the text. */
    private static Map<String, String> rows(String text) {
        Map<String, String> rows = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                rows.put(row.group(1), row.group(2));
            }
        }
        return rows;
    }
}
