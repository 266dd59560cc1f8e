package dev.sluice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import dev.sluice.record.PlantedUpwardImport;

/**
 * The package order and the rules that keep it (ADR 0079), checked on the
 * compiled classes. Each layer may use the layers below it and never one above
 * it or a peer: the two doors never use each other, the run never reaches up to
 * the actions, the record never knows who runs it. Inside {@code container},
 * each part uses only the parts it is allowed, and none uses the root that
 * puts them together; images have one home, {@code image}.
 */
class ArchitectureTest {

    /** Top to bottom. */
    static final List<List<String>> LAYERS = List.of(
            List.of("api", "mcp"),
            List.of("actions"),
            List.of("group", "events", "metrics", "health"),
            List.of("run"),
            List.of("workspace", "image"),
            List.of("logs", "callback"),
            List.of("record"),
            List.of("artifact", "report", "summary"),
            List.of("worker"),
            List.of("container"),
            List.of("output"),
            List.of("store"),
            List.of("concurrent", "hashing", "json", "outbound", "trace"));

    /**
     * The parts of {@code container}, bottom first, each with the parts it may
     * use; the container root ({@code dev.sluice.container} itself) may use them
     * all, and none of them uses it.
     */
    static final Map<String, List<String>> CONTAINER_PARTS = containerParts();

    private static Map<String, List<String>> containerParts() {
        Map<String, List<String>> parts = new LinkedHashMap<>();
        parts.put("engine", List.of());
        parts.put("stream", List.of("engine"));
        parts.put("sandbox", List.of("engine"));
        parts.put("files", List.of("engine", "sandbox"));
        return parts;
    }

    /**
     * docker-java's pulls, registry logins and image removals: only {@code image}
     * uses them, and {@code container.engine}, whose clients carry the
     * engine's registry settings.
     */
    static final String IMAGE_COMMANDS =
            "com\\.github\\.dockerjava\\.(api\\.command\\.(PullImage|RemoveImage|ListImages"
                    + "|PushImage|TagImage|Auth)\\w*|api\\.model\\.(AuthConfig|AuthConfigurations|AuthResponse|PullResponseItem"
                    + "|PushResponseItem)|core\\.command\\.(PullImage|RemoveImage|ListImages|PushImage|TagImage|Auth)\\w*)(\\$.*)?";

    static final String[] DOORS = {"dev.sluice.api..", "dev.sluice.mcp.."};

    static final String[] HTTP_SERVER_TYPES = {
        "jakarta.ws.rs..", "org.jboss.resteasy..", "io.vertx..", "io.quarkus.vertx..", "io.quarkiverse.mcp.."
    };

    /** The main classes and one test class that breaks every rule, imported once. */
    private static final JavaClasses PLANTED = new ClassFileImporter()
            .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                    || location.contains(PlantedUpwardImport.class.getSimpleName()))
            .importPackages("dev.sluice");

    /** The main classes alone. */
    private static final JavaClasses MAIN = PLANTED.that(
            DescribedPredicate.not(JavaClass.Predicates.simpleName(PlantedUpwardImport.class.getSimpleName())));

    @Test
    void everyPackageIsInALayer() {
        List<String> layered = LAYERS.stream().flatMap(List::stream).toList();
        List<String> packages = MAIN.stream()
                .map(c ->
                        c.getPackageName().replaceFirst("^dev\\.sluice\\.?", "").replaceFirst("\\..*", ""))
                .filter(name -> !name.isEmpty())
                .distinct()
                .toList();
        assertThat(layered).as("packages that have no layer").containsAll(packages);
    }

    @Test
    void everyContainerPackageIsAPart() {
        List<String> parts = MAIN.stream()
                .map(JavaClass::getPackageName)
                .filter(name -> name.startsWith("dev.sluice.container."))
                .map(name -> name.substring("dev.sluice.container.".length()).replaceFirst("\\..*", ""))
                .distinct()
                .toList();
        assertThat(CONTAINER_PARTS.keySet())
                .as("container packages that are no part")
                .containsAll(parts);
    }

    @Test
    void layersUseOnlyTheLayersBelow() {
        for (ArchRule rule : layerRules()) {
            rule.check(MAIN);
        }
    }

    @Test
    void packagesHaveNoCycles() {
        noCycles().check(MAIN);
    }

    @Test
    void containerPartsUseOnlyTheirAllowedParts() {
        for (ArchRule rule : containerPartRules()) {
            rule.check(MAIN);
        }
    }

    @Test
    void containerPartsHaveNoCycles() {
        noContainerPartCycles().check(MAIN);
    }

    @Test
    void containerNeverUsesImage() {
        containerWithoutImage().check(MAIN);
    }

    @Test
    void pullsAndRegistryLoginsStayInImage() {
        imageCommandsInImage().check(MAIN);
    }

    @Test
    void nothingBelowTheDoorsUsesHttpServerTypes() {
        noHttpBelowTheDoors().check(MAIN);
    }

    @Test
    void libraryTypesStayInThePackageThatWrapsThem() {
        for (ArchRule rule : wrappedLibraries()) {
            rule.check(MAIN);
        }
    }

    /** The rules would be worth nothing if they passed whatever the code did. */
    @Test
    void aPlantedUpwardImportBreaksEveryRule() {
        assertThat(PLANTED.contain(PlantedUpwardImport.class)).isTrue();
        assertViolated(layerRules().stream().map(rule -> rule.evaluate(PLANTED)));
        assertViolated(Stream.of(noCycles().evaluate(PLANTED)));
        assertViolated(Stream.of(noHttpBelowTheDoors().evaluate(PLANTED)));
        for (ArchRule rule : wrappedLibraries()) {
            assertViolated(Stream.of(rule.evaluate(PLANTED)));
        }
        for (ArchRule rule : containerPartRules()) {
            assertViolated(Stream.of(rule.evaluate(PLANTED)));
        }
        assertViolated(Stream.of(noContainerPartCycles().evaluate(PLANTED)));
        assertViolated(Stream.of(containerWithoutImage().evaluate(PLANTED)));
        assertViolated(Stream.of(imageCommandsInImage().evaluate(PLANTED)));
    }

    private static void assertViolated(Stream<EvaluationResult> results) {
        List<String> violations = results.flatMap(r -> r.getFailureReport().getDetails().stream())
                .filter(detail -> detail.contains(PlantedUpwardImport.class.getSimpleName()))
                .toList();
        assertThat(violations).as("violations naming the planted class").isNotEmpty();
    }

    static List<ArchRule> layerRules() {
        List<ArchRule> rules = new ArrayList<>();
        for (int i = 0; i < LAYERS.size(); i++) {
            for (String own : LAYERS.get(i)) {
                List<String> forbidden = new ArrayList<>();
                for (int j = 0; j <= i; j++) {
                    LAYERS.get(j).stream().filter(p -> !p.equals(own)).forEach(forbidden::add);
                }
                if (forbidden.isEmpty()) {
                    continue;
                }
                rules.add(noClasses()
                        .that()
                        .resideInAPackage("dev.sluice." + own + "..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage(forbidden.stream()
                                .map(p -> "dev.sluice." + p + "..")
                                .toArray(String[]::new))
                        .because(own + " may use only the layers below it: " + below(i)));
            }
        }
        return rules;
    }

    private static String below(int layer) {
        return LAYERS.subList(layer + 1, LAYERS.size()).toString();
    }

    /** One rule per part: it uses neither the container root nor a part it is not allowed. */
    static List<ArchRule> containerPartRules() {
        List<ArchRule> rules = new ArrayList<>();
        CONTAINER_PARTS.forEach((part, allowed) -> {
            List<String> forbidden = new ArrayList<>(List.of("dev.sluice.container"));
            CONTAINER_PARTS.keySet().stream()
                    .filter(p -> !p.equals(part) && !allowed.contains(p))
                    .map(p -> "dev.sluice.container." + p + "..")
                    .forEach(forbidden::add);
            rules.add(noClasses()
                    .that()
                    .resideInAPackage("dev.sluice.container." + part + "..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(forbidden.toArray(String[]::new))
                    .because("container." + part + " may use only " + allowed
                            + " among the container packages, and never the container root"));
        });
        return rules;
    }

    static ArchRule noContainerPartCycles() {
        return slices().matching("dev.sluice.container.(*)..").should().beFreeOfCycles();
    }

    static ArchRule containerWithoutImage() {
        return noClasses()
                .that()
                .resideInAPackage("dev.sluice.container..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.sluice.image..")
                .because("images sit above the container: what a container needs of an image is handed to it");
    }

    static ArchRule imageCommandsInImage() {
        return noClasses()
                .that()
                .resideOutsideOfPackages("dev.sluice.image..", "dev.sluice.container.engine..")
                .should()
                .dependOnClassesThat()
                .haveNameMatching(IMAGE_COMMANDS)
                .because("pulls, registry credentials and image removals have one home, image");
    }

    static ArchRule noCycles() {
        return slices().matching("dev.sluice.(*)..").should().beFreeOfCycles();
    }

    static ArchRule noHttpBelowTheDoors() {
        return noClasses()
                .that()
                .resideInAPackage("dev.sluice..")
                .and()
                .resideOutsideOfPackages(DOORS)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(HTTP_SERVER_TYPES)
                .because("requests arrive through the doors (api, mcp); below them the code speaks records: "
                        + Arrays.toString(HTTP_SERVER_TYPES));
    }

    static List<ArchRule> wrappedLibraries() {
        return List.of(
                noClasses()
                        .that()
                        .resideOutsideOfPackages("dev.sluice.container..", "dev.sluice.image..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage("com.github.dockerjava..")
                        .because("the engine's types stay inside container and image, which wrap docker-java"),
                noClasses()
                        .that()
                        .resideOutsideOfPackage("dev.sluice.store..")
                        .should()
                        .dependOnClassesThat()
                        .resideInAnyPackage("java.sql..", "javax.sql..")
                        .because("JDBC stays inside store, which wraps it"));
    }
}
