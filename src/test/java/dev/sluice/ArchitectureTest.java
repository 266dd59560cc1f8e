package dev.sluice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * The package order and the rules that keep it (ADR 0046), checked on the
 * compiled classes. Each layer may use the layers below it and never one above
 * it or a peer: the two doors never use each other, the run never reaches up to
 * the actions, the record never knows who runs it.
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
    private static final JavaClasses MAIN =
            PLANTED.that(DescribedPredicate.not(JavaClass.Predicates.equivalentTo(PlantedUpwardImport.class)));

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
