package dev.sluice;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.conditions.ArchConditions;

import dev.sluice.mcp.PlantedDoorImport;
import dev.sluice.record.PlantedUpwardImport;

/**
 * The package order and the rules that keep it (ADR 0079), checked on the
 * compiled classes. Each layer may use the layers below it and never one above
 * it or a peer: the two doors never use each other, the run never reaches up to
 * the actions, the record never knows who runs it. The doors reach the service
 * through {@code actions} alone, naming only documents of the packages below
 * (ADR 0080). Inside {@code container}, each part uses only the parts it is
 * allowed, and none uses the root that puts them together; images have one
 * home, {@code image}.
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
            List.of("concurrent", "hashing", "io", "json", "outbound", "trace"));

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

    /**
     * What the doors may use besides their own package and {@code actions}:
     * the bottom layer, infrastructure that holds no part of the service
     * ({@code concurrent}, {@code hashing}, {@code json}, {@code outbound},
     * {@code trace}).
     */
    static final List<String> DOOR_INFRASTRUCTURE = LAYERS.get(LAYERS.size() - 1);

    /** The packages that may hold SQL on the dispatches table: the record, and the storage mechanics below it. */
    static final List<String> DISPATCHES_OWNERS = List.of("record", "store");

    /** A statement naming the dispatches table, as the code writes SQL (keywords in capitals). */
    static final Pattern DISPATCHES_SQL = Pattern.compile("\\b(FROM|INTO|UPDATE|JOIN|TABLE)\\s+dispatches\\b");

    /** What looks up a name or classifies an address: outbound's alone (the SSRF rules, ADR 0056). */
    static final Set<String> ADDRESS_METHODS =
            Set.of("getByName", "getAllByName", "getByAddress", "getLocalHost", "getCanonicalHostName", "getHostName");

    static final String[] HTTP_SERVER_TYPES = {
        "jakarta.ws.rs..", "org.jboss.resteasy..", "io.vertx..", "io.quarkus.vertx..", "io.quarkiverse.mcp.."
    };

    /** The main classes and one test class that breaks every rule, imported once. */
    private static final JavaClasses PLANTED = new ClassFileImporter()
            .withImportOption(location ->
                    ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location) || location.contains("/Planted"))
            .importPackages("dev.sluice");

    /** The main classes alone. */
    private static final JavaClasses MAIN =
            PLANTED.that(DescribedPredicate.not(JavaClass.Predicates.simpleNameStartingWith("Planted")));

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

    @Test
    void onlyTheRecordAndTheStoreHoldSqlOnTheDispatchesTable() {
        assertThat(sqlOnDispatchesOutsideItsOwners(MAIN)).isEmpty();
        assertThat(MAIN.stream()
                        .filter(c -> c.getPackageName().equals("dev.sluice.record"))
                        .anyMatch(c -> !sql(c).isEmpty()))
                .as("the scan finds the record's statements")
                .isTrue();
    }

    @Test
    void onlyOutboundLooksUpNamesOrClassifiesAddresses() {
        addressesInOutbound().check(MAIN);
    }

    @Test
    void theDoorsUseActionsAndInfrastructureAlone() {
        doorsUseActionsAlone().check(MAIN);
    }

    /**
     * The door rule names each way past actions: the run, a bean, a setting, a
     * utility class that is no document, a port called rather than implemented; and
     * lets the implementing itself, and the documents, through.
     */
    @Test
    void theDoorRuleCatchesEveryWayPastActions() {
        List<String> details = doorsUseActionsAlone().evaluate(PLANTED).getFailureReport().getDetails().stream()
                .filter(detail -> detail.contains(PlantedDoorImport.class.getName() + "."))
                .toList();
        for (String used : List.of(
                "dev.sluice.run.DispatchIntake",
                "dev.sluice.events.EventHub",
                "dev.sluice.record.DispatchConfig",
                "dev.sluice.record.DispatchLinks",
                "dev.sluice.events.EventSink.send")) {
            assertThat(details).as("violations naming " + used).anyMatch(detail -> detail.contains("<" + used));
        }
        assertThat(details).noneMatch(detail -> detail.contains("implements interface"));
        assertThat(details).noneMatch(detail -> detail.contains("type <dev.sluice.events.EventMessage>"));
    }

    /** The rules would be worth nothing if they passed whatever the code did. */
    @Test
    void aPlantedUpwardImportBreaksEveryRule() {
        assertThat(PLANTED.contain(PlantedUpwardImport.class)).isTrue();
        assertThat(PLANTED.contain(PlantedDoorImport.class)).isTrue();
        assertThat(sqlOnDispatchesOutsideItsOwners(PLANTED))
                .as("statements on dispatches outside record and store")
                .containsExactly(PlantedDoorImport.class.getName());
        assertViolated(Stream.of(addressesInOutbound().evaluate(PLANTED)));
        assertThat(addressesInOutbound().evaluate(PLANTED).getFailureReport().getDetails())
                .as("a socket address made from a name is a lookup")
                .anyMatch(detail -> detail.contains("InetSocketAddress.<init>(java.lang.String, int)"));
        assertViolated(Stream.of(doorsUseActionsAlone().evaluate(PLANTED)), PlantedDoorImport.class);
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
        assertViolated(results, PlantedUpwardImport.class);
    }

    private static void assertViolated(Stream<EvaluationResult> results, Class<?> planted) {
        List<String> violations = results.flatMap(r -> r.getFailureReport().getDetails().stream())
                .filter(detail -> detail.contains(planted.getSimpleName()))
                .toList();
        assertThat(violations).as("violations naming the planted class").isNotEmpty();
    }

    /**
     * The classes outside record and store whose constants hold a statement
     * on the dispatches table. ArchUnit sees no strings, so this reads the
     * class files' constant pools, where javac puts every literal, folded
     * constants and the literal parts of a concatenation included.
     */
    static List<String> sqlOnDispatchesOutsideItsOwners(JavaClasses classes) {
        return classes.stream()
                .filter(c -> DISPATCHES_OWNERS.stream()
                        .noneMatch(p -> c.getPackageName().equals("dev.sluice." + p)
                                || c.getPackageName().startsWith("dev.sluice." + p + ".")))
                .filter(c -> !sql(c).isEmpty())
                .map(JavaClass::getName)
                .sorted()
                .toList();
    }

    /** The constants of a class that name the dispatches table in a statement. */
    static List<String> sql(JavaClass c) {
        Source source = c.getSource().orElseThrow(() -> new AssertionError("no class file for " + c.getName()));
        try (InputStream in = source.getUri().toURL().openStream()) {
            return constants(in.readAllBytes()).stream()
                    .filter(text -> DISPATCHES_SQL.matcher(text).find())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text constants (CONSTANT_Utf8) of a class file (JVMS 4.4). */
    static List<String> constants(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        List<String> texts = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> texts.add(in.readUTF());
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8);
                    i++; // a long or a double takes two entries
                }
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return texts;
    }

    static ArchRule addressesInOutbound() {
        return noClasses()
                .that()
                .resideOutsideOfPackage("dev.sluice.outbound..")
                .should()
                .callCodeUnitWhere(new DescribedPredicate<JavaCall<?>>("look up a name or classify an address") {
                    @Override
                    public boolean test(JavaCall<?> call) {
                        String name = call.getTarget().getName();
                        if (call.getTargetOwner().isEquivalentTo(InetSocketAddress.class)) {
                            // new InetSocketAddress(host, port) looks the name up, with no deadline.
                            return name.equals("<init>")
                                    && call.getTarget()
                                            .getRawParameterTypes()
                                            .get(0)
                                            .isEquivalentTo(String.class);
                        }
                        return call.getTargetOwner().isAssignableTo(InetAddress.class)
                                && (ADDRESS_METHODS.contains(name) || name.matches("is[A-Z].*Address"));
                    }
                })
                .because("names are resolved and addresses judged in outbound alone, where the SSRF rules are");
    }

    /**
     * The doors use their own packages, {@code actions} and the bottom layer;
     * of every other package they name only its documents, and implement its
     * ports: nothing a door names below {@code actions} can reach the service.
     */
    static ArchRule doorsUseActionsAlone() {
        List<String> allowed = new ArrayList<>(List.of("api", "mcp", "actions"));
        allowed.addAll(DOOR_INFRASTRUCTURE);
        return classes()
                .that()
                .resideInAnyPackage(DOORS)
                .should(ArchConditions.onlyHaveDependenciesWhere(
                        new DescribedPredicate<Dependency>(
                                "the target is of " + allowed + ", a document or a port the door implements") {
                            @Override
                            public boolean test(Dependency dependency) {
                                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                                String name = target.getPackageName();
                                if (!name.startsWith("dev.sluice.")) {
                                    return true;
                                }
                                String top =
                                        name.substring("dev.sluice.".length()).replaceFirst("\\..*", "");
                                return allowed.contains(top) || document(target) || implementedPort(dependency);
                            }
                        }))
                .because("the doors reach the service through actions alone (ADR 0080): below it they name only "
                        + "documents (records, enums, exceptions), never a bean, a setting or a utility class");
    }

    /**
     * A document of the contract: a record, an enum or an exception, data that
     * holds nothing of the service. Classes outside dev.sluice are imported by
     * name alone, so whether a class is an exception is asked of the class itself.
     */
    static boolean document(JavaClass type) {
        return type.isRecord() || type.isEnum() || Throwable.class.isAssignableFrom(type.reflect());
    }

    /**
     * A door's class implementing an interface a lower package declares for it
     * to implement (a port, ADR 0015), such as the events' sink: the service
     * calls the door through it. Only the {@code implements} itself; naming the
     * interface otherwise (a field, a call) is naming a service type.
     */
    static boolean implementedPort(Dependency dependency) {
        JavaClass target = dependency.getTargetClass();
        return target.isInterface()
                && dependency.getOriginClass().getRawInterfaces().contains(target)
                && dependency.getDescription().contains(" implements interface <" + target.getName() + ">");
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
