package dev.sluice.docs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The generated part of docs/configuration.md, between its two markers: a
 * table per config interface ({@link ConfigMappingReader}), in the order a
 * dispatch meets them. What is around the markers is written by hand and
 * stays as it is.
 */
final class ConfigurationDocument {

    static final Path DOCUMENT = Path.of("docs/configuration.md");
    static final String BEGIN =
            "<!-- Generated from the @ConfigMapping interfaces by ConfigurationDocumentTest: edit their Javadoc, not this part. -->";
    static final String END = "<!-- End of the generated part. -->";

    private ConfigurationDocument() {}

    /**
     * The generated part, markers included. Interfaces that share a prefix
     * (each concern maps its own keys of {@code sluice.tenants.<name>}) make one
     * section: each one's description, then one table of all their settings.
     */
    static String generate() throws IOException {
        Map<String, List<ConfigMappingReader.Mapping>> byPrefix = new LinkedHashMap<>();
        for (ConfigMappingReader.Mapping mapping : ConfigMappingReader.mappings()) {
            byPrefix.computeIfAbsent(mapping.prefix(), p -> new ArrayList<>()).add(mapping);
        }
        StringBuilder out = new StringBuilder(BEGIN).append("\n");
        for (Map.Entry<String, List<ConfigMappingReader.Mapping>> section : byPrefix.entrySet()) {
            out.append("\n## `").append(section.getKey()).append("`\n\n");
            for (ConfigMappingReader.Mapping mapping : section.getValue()) {
                out.append(mapping.description()).append("\n\n");
            }
            out.append("| property | environment variable | type | default | description |\n");
            out.append("| --- | --- | --- | --- | --- |\n");
            for (ConfigMappingReader.Mapping mapping : section.getValue()) {
                for (ConfigMappingReader.Setting s : mapping.settings()) {
                    out.append("| `%s` | `%s` | %s | %s | %s |\n"
                            .formatted(s.property(), s.environment(), s.type(), s.defaultValue(), s.description()));
                }
            }
        }
        return out.append("\n").append(END).toString();
    }

    /** The document with its generated part replaced; what is around it stays as written. */
    static String splice(String document, String generated) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(DOCUMENT + " has lost its markers: " + BEGIN + " ... " + END);
        }
        return document.substring(0, begin) + generated + document.substring(end + END.length());
    }

    /** The generated part as the document holds it now. */
    static String current(String document) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        return begin < 0 || end < begin ? "" : document.substring(begin, end + END.length());
    }
}
