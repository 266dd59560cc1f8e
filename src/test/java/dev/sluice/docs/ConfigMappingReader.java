package dev.sluice.docs;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigMappingInterface.Property;
import io.smallrye.config.ConfigMappings;
import io.smallrye.config.ConfigMappings.ConfigClass;

/**
 * Every setting of every {@code @ConfigMapping} interface under src/main/java,
 * found by scanning the sources, so that a new interface cannot be left out.
 * Names and defaults come from SmallRye's own reading of each interface (the
 * one the worker does at start-up: kebab-case, {@code @WithName}, groups,
 * maps, lists and optionals), with a default in application.properties over
 * the interface's; each description comes from the method's Javadoc, and a
 * setting without one is an error.
 */
final class ConfigMappingReader {

    static final Path SOURCES = Path.of("src/main/java");
    static final Path PROPERTIES = Path.of("src/main/resources/application.properties");
    static final Path ADRS = Path.of("adr");

    /** Prefixes in the order a dispatch meets them; a prefix not named here comes after these, by name. */
    private static final List<String> ORDER = List.of(
            "sluice.api",
            "sluice.mcp",
            "sluice.images",
            "sluice.secrets",
            "sluice.dispatch",
            "sluice.output",
            "sluice.container",
            "sluice.docker",
            "sluice.report",
            "sluice.artifacts",
            "sluice.events",
            "sluice.callback",
            "sluice.groups",
            "sluice.summarizer",
            "sluice.worker",
            "sluice.store",
            "sluice.metrics");

    private static final Pattern ADR = Pattern.compile("\\bADR (\\d{4})\\b");

    private ConfigMappingReader() {}

    /** One row of the table. */
    record Setting(String property, String environment, String type, String defaultValue, String description) {}

    /** One interface: its prefix, what its Javadoc says of it, and its settings in the order it declares them. */
    record Mapping(String prefix, String description, List<Setting> settings) {}

    /** Every mapping under src/main/java, in the document's order. */
    static List<Mapping> mappings() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(PROPERTIES)) {
            properties.load(reader);
        }
        List<Mapping> mappings = new ArrayList<>();
        Map<String, String> adrs = adrFiles();
        for (Class<?> type : configInterfaces()) {
            mappings.add(mapping(type, properties, adrs));
        }
        mappings.sort(Comparator.comparing(
                        (Mapping m) -> ORDER.contains(m.prefix()) ? ORDER.indexOf(m.prefix()) : ORDER.size())
                .thenComparing(Mapping::prefix));
        return mappings;
    }

    /** "ADR 0027" as a link to the record, where it exists. */
    static String linkAdrs(String text, Map<String, String> adrs) {
        return ADR.matcher(text).replaceAll(m -> {
            String file = adrs.get(m.group(1));
            return file == null ? m.group() : Matcher.quoteReplacement("[ADR " + m.group(1) + "](../adr/" + file + ")");
        });
    }

    /** Each record's file by its number. */
    private static Map<String, String> adrFiles() throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(ADRS)) {
            list.map(f -> f.getFileName().toString())
                    .filter(name -> name.matches("\\d{4}-.*\\.md"))
                    .forEach(name -> files.put(name.substring(0, 4), name));
        }
        return files;
    }

    /** The types of the source files that carry {@code @ConfigMapping}, loaded as the build compiled them. */
    static List<Class<?>> configInterfaces() throws IOException {
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                if (!Files.readString(file).contains("@ConfigMapping(")) {
                    continue;
                }
                String name =
                        SOURCES.relativize(file).toString().replace(".java", "").replace('/', '.');
                try {
                    types.add(Class.forName(name));
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(file + " is not compiled; build before generating", e);
                }
            }
        }
        return types;
    }

    private static Mapping mapping(Class<?> type, Properties properties, Map<String, String> adrs) throws IOException {
        ConfigMapping annotation = type.getAnnotation(ConfigMapping.class);
        if (annotation == null) {
            throw new IllegalStateException(type.getName() + " mentions @ConfigMapping but is not annotated with it");
        }
        JavadocSource source = JavadocSource.of(SOURCES, type);
        String intro = source.type(type)
                .javadoc()
                .map(j -> linkAdrs(JavadocMarkdown.of(j), adrs))
                .orElseThrow(
                        () -> new IllegalStateException(type.getName() + " has no Javadoc: say what it configures"));
        Map<String, Property> byPath = ConfigMappings.getProperties(ConfigClass.configClass(type));
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, Property> entry : byPath.entrySet()) {
            String path = entry.getKey();
            // A list is listed once, under its own name (comma-separated values), not again as its indexed form.
            if (path.endsWith("[*]") && byPath.containsKey(path.substring(0, path.length() - 3))) {
                continue;
            }
            rows.add(row(type, path, entry.getValue(), properties, adrs));
        }
        rows.sort(
                Comparator.comparing(Row::order).thenComparing(r -> r.setting().property()));
        return new Mapping(
                annotation.prefix(), intro, rows.stream().map(Row::setting).toList());
    }

    /** A setting with where its method stands in the interface: its own settings first, as declared. */
    private record Row(Setting setting, long order) {}

    private static Row row(
            Class<?> root, String path, Property property, Properties properties, Map<String, String> adrs)
            throws IOException {
        Class<?> declaring = property.getMethod().getDeclaringClass();
        String method = property.getMethod().getName();
        JavadocSource.Declaration declaration =
                JavadocSource.of(SOURCES, declaring).method(declaring, method);
        String description = declaration
                .javadoc()
                .map(j -> linkAdrs(JavadocMarkdown.of(j), adrs))
                .orElseThrow(() -> new IllegalStateException(path + " (" + declaring.getSimpleName() + "." + method
                        + "()) has no Javadoc: say what it sets, and it will be documented"));
        String defaultValue =
                properties.getProperty(path, property.hasDefaultValue() ? property.getDefaultValue() : null);
        Setting setting = new Setting(
                SettingNames.property(path),
                SettingNames.environment(path),
                SettingTypes.of(property.getMethod().getGenericReturnType()),
                defaultValue == null
                        ? "none"
                        : defaultValue.isEmpty() ? "empty" : "`" + defaultValue.replace("|", "\\|") + "`",
                description);
        return new Row(setting, declaring == root ? declaration.offset() : Long.MAX_VALUE);
    }
}
