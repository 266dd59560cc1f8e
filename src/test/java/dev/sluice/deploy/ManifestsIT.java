package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.sluice.testsupport.Program;

/**
 * The Kubernetes manifests (deploy/kubernetes): every overlay renders with
 * kubectl, every resource passes a strict offline schema check (Node,
 * kubernetes-models, unknown fields refused), that check is shown to refuse
 * each kind of error, and the rendered pods keep what the worker relies on.
 * The alerting rules (deploy/prometheus) pass the same check against the
 * Prometheus operator's schema, and the replicas' autoscaler against KEDA's.
 */
class ManifestsIT {

    private static final Path KUBERNETES = Path.of("deploy/kubernetes");
    private static final Path RENDERED = Path.of("target/manifests");
    private static final Path SECRET_EXAMPLE = KUBERNETES.resolve("base/secret.example.yaml");
    /** Alerting rules on the worker's metrics, beside the manifests (MetricsIT checks their expressions). */
    private static final Path ALERTS = Path.of("deploy/prometheus/sluice-alerts.yaml");

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, String> RENDERS = new ConcurrentHashMap<>();

    /** Every overlay, found on disk so that a new one cannot be left out. */
    private static List<Path> overlays;

    @BeforeAll
    static void findOverlays() throws IOException {
        try (Stream<Path> dirs = Files.list(KUBERNETES.resolve("overlays"))) {
            overlays = dirs.filter(Files::isDirectory).sorted().toList();
        }
        assertThat(overlays.stream().map(p -> p.getFileName().toString()))
                .containsExactly("dind", "dind-rootless", "host-socket", "replicas");
        Files.createDirectories(RENDERED);
    }

    // --- kubectl and the strict schema check ------------------------------------------------

    @Test
    void theBaseAndEveryOverlayRenderAndPassTheStrictSchemaCheck() throws IOException {
        List<String> files = new ArrayList<>();
        int resources = 0;
        for (Path dir : Stream.concat(Stream.of(KUBERNETES.resolve("base")), overlays.stream())
                .toList()) {
            String yaml = render(dir);
            resources += parse(yaml).size();
            files.add(write(dir.getFileName().toString(), yaml));
        }
        files.add(SECRET_EXAMPLE.toString());
        resources += 1;

        Program.Result result = Program.node("", "validate-manifests.mjs", files.toArray(String[]::new));

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.stdout()).contains(resources + " resources checked, 0 invalid");
        assertThat(result.stdout().lines().filter(l -> l.startsWith("ok "))).hasSize(resources);
    }

    @Test
    void theSchemaCheckRefusesAWrongType() throws IOException {
        assertRefused(
                deployment -> pod(deployment).put("terminationGracePeriodSeconds", "100"),
                "/spec/template/spec/terminationGracePeriodSeconds: must be integer");
    }

    @Test
    void theSchemaCheckRefusesAMissingRequiredField() throws IOException {
        assertRefused(
                deployment -> ((ObjectNode) worker(deployment)).remove("name"),
                "/spec/template/spec/containers/0: missing required field \"name\"");
    }

    @Test
    void theSchemaCheckRefusesAnUnknownField() throws IOException {
        // A near miss of readOnlyRootFilesystem: lenient validation would
        // accept it, and the root filesystem would silently stay writable.
        assertRefused(
                deployment -> ((ObjectNode) worker(deployment).get("securityContext")).put("readOnlyRootFS", true),
                "/spec/template/spec/containers/0/securityContext/readOnlyRootFS: unknown field \"readOnlyRootFS\"");
        assertRefused(
                deployment -> ((ObjectNode) deployment.get("spec")).put("replica", 2),
                "/spec/replica: unknown field \"replica\"");
    }

    @Test
    void theAlertingRulesAreAPrometheusRuleByTheOperatorsSchemaStrictly() throws IOException {
        Program.Result valid = Program.node("", "validate-manifests.mjs", ALERTS.toString());
        assertThat(valid.exitCode()).as(valid.output()).isZero();
        assertThat(valid.stdout()).contains("ok      " + ALERTS + ": PrometheusRule sluice/sluice");

        // A near miss of expr: the rule would load with no expression at all.
        String typo = Files.readString(ALERTS).replaceFirst("expr:", "exp:");
        Program.Result refused = Program.node(typo, "validate-manifests.mjs", "-");
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
        assertThat(refused.stdout())
                .contains("/spec/groups/0/rules/0/exp: unknown field \"exp\"")
                .contains("/spec/groups/0/rules/0: missing required field \"expr\"");
    }

    /**
     * Validates the dind overlay with one change made to its Deployment, and
     * asserts that exactly that resource is refused, with a message naming the field.
     */
    private static void assertRefused(Consumer<JsonNode> change, String expected) throws IOException {
        List<JsonNode> resources = parse(render(overlay("dind")));
        change.accept(only(resources, "Deployment"));
        StringBuilder yaml = new StringBuilder();
        for (JsonNode r : resources) {
            yaml.append(YAML.writeValueAsString(r));
        }

        Program.Result result = Program.node(yaml.toString(), "validate-manifests.mjs", "-");

        assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
        assertThat(result.stdout())
                .contains("invalid -: Deployment sluice/sluice")
                .contains(expected)
                .contains(resources.size() + " resources checked, 1 invalid");
    }

    // --- what the rendered pods keep -----------------------------------------------------------

    /**
     * Probes and the scrape go to the management port, the Service to the API's
     * alone (ADR 0053): both ports as application.properties sets them. The
     * management port listens on loopback unless told otherwise, and the pod
     * tells it the pod's own address, where the kubelet and Prometheus reach
     * it (ADR 0071).
     */
    @Test
    void theWorkerIsProbedAndScrapedOnTheManagementPortAndServedOnTheApiPort() throws IOException {
        int http = Integer.parseInt(applicationProperty("quarkus.http.port"));
        int management = Integer.parseInt(applicationProperty("quarkus.management.port"));
        assertThat(applicationProperty("quarkus.management.enabled")).isEqualTo("true");
        assertThat(applicationProperty("quarkus.management.host")).isEqualTo("127.0.0.1");
        for (Path overlay : overlays) {
            List<JsonNode> resources = parse(render(overlay));
            JsonNode deployment = only(resources, "Deployment");
            JsonNode worker = worker(deployment);
            JsonNode host = find(worker.get("env"), "name", "QUARKUS_MANAGEMENT_HOST");
            assertThat(host.at("/valueFrom/fieldRef/fieldPath").asText())
                    .as(overlay + ": the management port on the pod's address")
                    .isEqualTo("status.podIP");
            assertThat(config(resources)).doesNotContainKey("QUARKUS_MANAGEMENT_HOST");
            assertThat(worker.at("/startupProbe/httpGet/path").asText()).isEqualTo("/q/health/started");
            assertThat(worker.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/q/health/live");
            assertThat(worker.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/q/health/ready");
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                assertThat(worker.at("/" + probe + "/httpGet/port").asText()).isEqualTo("management");
            }
            assertThat(find(worker.get("ports"), "name", "http")
                            .get("containerPort")
                            .asInt())
                    .isEqualTo(http);
            assertThat(find(worker.get("ports"), "name", "management")
                            .get("containerPort")
                            .asInt())
                    .isEqualTo(management);

            JsonNode annotations = deployment.at("/spec/template/metadata/annotations");
            assertThat(annotations.path("prometheus.io/path").asText()).isEqualTo("/q/metrics");
            assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo(String.valueOf(management));

            JsonNode servicePorts = only(resources, "Service").at("/spec/ports");
            assertThat(servicePorts).hasSize(1);
            assertThat(servicePorts.at("/0/targetPort").asText()).isEqualTo("http");
        }
    }

    /**
     * Kubernetes expands {@code $(NAME)} in a value only for a variable
     * listed before it, and a patch's new variables land before the base's:
     * a reference to one defined later reaches the worker as the literal
     * text {@code $(NAME)}.
     */
    @Test
    void everyVariableAValueNamesIsDefinedBeforeIt() throws IOException {
        Pattern reference = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
        int references = 0;
        for (Path overlay : overlays) {
            JsonNode env = worker(only(parse(render(overlay)), "Deployment")).get("env");
            Set<String> before = new TreeSet<>();
            for (JsonNode variable : env) {
                Matcher m = reference.matcher(variable.path("value").asText());
                while (m.find()) {
                    references++;
                    assertThat(before)
                            .as(
                                    "%s: %s names $(%s)",
                                    overlay, variable.get("name").asText(), m.group(1))
                            .contains(m.group(1));
                }
                before.add(variable.get("name").asText());
            }
        }
        assertThat(references)
                .as("the replicas' advertised address names the pod's")
                .isPositive();
    }

    @Test
    void theWorkerRunsRestrictedWithResources() throws IOException {
        for (Path overlay : overlays) {
            JsonNode worker = worker(only(parse(render(overlay)), "Deployment"));
            JsonNode security = worker.get("securityContext");
            assertThat(security.get("runAsNonRoot").asBoolean())
                    .as(overlay.toString())
                    .isTrue();
            assertThat(security.get("readOnlyRootFilesystem").asBoolean()).isTrue();
            assertThat(security.get("allowPrivilegeEscalation").asBoolean()).isFalse();
            assertThat(security.path("privileged").asBoolean(false)).isFalse();
            assertThat(texts(security.at("/capabilities/drop"))).containsExactly("ALL");
            assertThat(security.at("/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
            for (String kind : List.of("requests", "limits")) {
                assertThat(worker.at("/resources/" + kind + "/memory").asText())
                        .as(kind)
                        .isNotEmpty();
                assertThat(worker.at("/resources/" + kind + "/cpu").asText())
                        .as(kind)
                        .isNotEmpty();
            }
        }
    }

    @Test
    void theGracePeriodCoversTheDrainAndTheShutdownAfterIt() throws IOException {
        Duration shutdown = duration(applicationProperty("quarkus.shutdown.delay"))
                .plus(duration(applicationProperty("quarkus.shutdown.timeout")));
        for (Path overlay : overlays) {
            List<JsonNode> resources = parse(render(overlay));
            Duration drain = duration(config(resources).get("SLUICE_WORKER_DRAIN_PERIOD"));
            long grace = pod(only(resources, "Deployment"))
                    .get("terminationGracePeriodSeconds")
                    .asLong();
            assertThat(drain).isEqualTo(Duration.ofSeconds(60));
            assertThat(grace).as(overlay.toString()).isGreaterThan(60);
            assertThat(Duration.ofSeconds(grace)).isGreaterThan(drain.plus(shutdown));
        }
    }

    @Test
    void theWorkerIdIsThePodNameAndSettingsComeFromTheConfigMapAndTheSecret() throws IOException {
        for (Path overlay : overlays) {
            List<JsonNode> resources = parse(render(overlay));
            JsonNode worker = worker(only(resources, "Deployment"));
            JsonNode id = find(worker.get("env"), "name", "SLUICE_WORKER_ID");
            assertThat(id.at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("metadata.name");

            assertThat(worker.at("/envFrom/0/configMapRef/name").asText())
                    .isEqualTo(only(resources, "ConfigMap", "sluice-config")
                            .at("/metadata/name")
                            .asText());
            assertThat(worker.at("/envFrom/1/secretRef/name").asText()).isEqualTo("sluice-secrets");
            // Required: a worker without its tokens would serve an open API.
            assertThat(worker.at("/envFrom/1/secretRef/optional").asBoolean(false))
                    .isFalse();
            assertThat(parse(Files.readString(SECRET_EXAMPLE))
                            .get(0)
                            .at("/metadata/name")
                            .asText())
                    .isEqualTo("sluice-secrets");
        }
    }

    @Test
    void everySettingInTheManifestsIsOneTheWorkerHas() throws IOException {
        Set<String> known = documentedSettings();
        Set<String> used = new TreeSet<>();
        for (Path overlay : overlays) {
            used.addAll(config(parse(render(overlay))).keySet());
        }
        parse(Files.readString(SECRET_EXAMPLE))
                .get(0)
                .get("stringData")
                .fieldNames()
                .forEachRemaining(used::add);

        assertThat(used).contains("SLUICE_DOCKER_HOST", "SLUICE_WORKER_DRAIN_PERIOD", "SLUICE_API_TOKENS");
        for (String name : used) {
            if (name.startsWith("SLUICE_")) {
                assertThat(known)
                        .as("%s is a setting docs/configuration.md lists", name)
                        .contains(name);
            }
        }
    }

    @Test
    void theEngineSocketIsInAVolumeTheWorkerMounts() throws IOException {
        for (Path overlay : overlays) {
            List<JsonNode> resources = parse(render(overlay));
            String host = config(resources).get("SLUICE_DOCKER_HOST");
            assertThat(host).as(overlay.toString()).startsWith("unix:///");
            String socket = host.substring("unix://".length());
            List<String> mounts = new ArrayList<>();
            worker(only(resources, "Deployment"))
                    .get("volumeMounts")
                    .forEach(m -> mounts.add(m.get("mountPath").asText()));
            assertThat(mounts).as(overlay.toString()).anyMatch(m -> socket.equals(m) || socket.startsWith(m + "/"));
        }
    }

    @Test
    void nothingReachesTheKubernetesApi() throws IOException {
        for (Path overlay : overlays) {
            List<JsonNode> resources = parse(render(overlay));
            JsonNode account = only(resources, "ServiceAccount");
            assertThat(account.get("automountServiceAccountToken").asBoolean(true))
                    .isFalse();
            JsonNode pod = pod(only(resources, "Deployment"));
            assertThat(pod.get("serviceAccountName").asText())
                    .isEqualTo(account.at("/metadata/name").asText());
            assertThat(pod.get("automountServiceAccountToken").asBoolean(true)).isFalse();
            assertThat(resources.stream().map(r -> r.get("kind").asText()))
                    .doesNotContain("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
        }
    }

    @Test
    void aNetworkPolicyAndADisruptionBudgetSelectTheWorker() throws IOException {
        for (Path overlay : overlays) {
            List<JsonNode> resources = parse(render(overlay));
            JsonNode podLabels = only(resources, "Deployment").at("/spec/template/metadata/labels");

            JsonNode policy = only(resources, "NetworkPolicy");
            assertThat(selects(policy.at("/spec/podSelector/matchLabels"), podLabels))
                    .isTrue();
            assertThat(texts(policy.at("/spec/policyTypes"))).containsExactlyInAnyOrder("Ingress", "Egress");
            // In: the API port and the management port, one rule each, nothing else.
            JsonNode ingress = policy.at("/spec/ingress");
            List<String> ports = new ArrayList<>();
            ingress.forEach(rule -> {
                assertThat(rule.get("ports")).hasSize(1);
                ports.add(rule.at("/ports/0/port").asText());
            });
            assertThat(ports).containsExactly("http", "management");
            // Out: DNS, and addresses outside the private ranges.
            JsonNode egress = policy.at("/spec/egress");
            assertThat(egress.at("/0/ports/0/port").asInt()).isEqualTo(53);
            assertThat(texts(egress.at("/1/to/0/ipBlock/except"))).contains("10.0.0.0/8", "169.254.0.0/16");

            JsonNode budget = only(resources, "PodDisruptionBudget");
            assertThat(selects(budget.at("/spec/selector/matchLabels"), podLabels))
                    .isTrue();
            assertThat(budget.at("/spec/maxUnavailable").asInt()).isEqualTo(1);
        }
    }

    @Test
    void eachOverlayReachesItsEngineAsItsRecordSays() throws IOException {
        JsonNode dind = pod(only(parse(render(overlay("dind"))), "Deployment"));
        JsonNode engine = find(dind.get("initContainers"), "name", "docker");
        assertThat(engine.get("restartPolicy").asText()).isEqualTo("Always"); // stopped after the worker
        assertThat(engine.at("/securityContext/privileged").asBoolean()).isTrue();
        // Given "dockerd" first, the image's entrypoint adds no unauthenticated TCP listener.
        assertThat(engine.at("/args/0").asText()).isEqualTo("dockerd");
        assertThat(texts(engine.get("args"))).noneMatch(a -> a.contains("tcp://"));

        JsonNode hostSocket = pod(only(parse(render(overlay("host-socket"))), "Deployment"));
        assertThat(hostSocket.at("/volumes/0/hostPath/path").asText()).isEqualTo("/var/run/docker.sock");
        assertThat(hostSocket.at("/volumes/0/hostPath/type").asText()).isEqualTo("Socket");
        assertThat(hostSocket.at("/securityContext/supplementalGroups")).isNotEmpty();
        assertThat(hostSocket.has("initContainers")).isFalse();

        JsonNode rootless = pod(only(parse(render(overlay("dind-rootless"))), "Deployment"));
        JsonNode unprivileged = find(rootless.get("initContainers"), "name", "docker");
        assertThat(unprivileged.get("restartPolicy").asText()).isEqualTo("Always");
        assertThat(unprivileged.at("/securityContext/privileged").asBoolean(true))
                .isFalse();
        assertThat(unprivileged.at("/securityContext/runAsUser").asInt()).isEqualTo(1000);
        assertThat(unprivileged.at("/args/0").asText()).isEqualTo("dockerd");
        assertThat(rootless.get("hostUsers").asBoolean(true)).isFalse();
    }

    // --- several replicas and their autoscaler -------------------------------------------------

    /**
     * KEDA's ScaledObject passes the strict check against KEDA's own schema
     * (in the test above); what a schema cannot see is checked here: it
     * scales this Deployment, which leaves the count to it, within bounds
     * that keep a pod for the disruption budget to take, on a query that
     * selects metrics the worker exports, one pod per run slots' worth.
     */
    @Test
    void theReplicasScaleOnTheQueueTheWorkersExportAndTheAutoscalerAloneSetsTheirCount() throws IOException {
        List<JsonNode> resources = parse(render(overlay("replicas")));
        JsonNode deployment = only(resources, "Deployment");
        JsonNode scaled = only(resources, "ScaledObject");
        assertThat(scaled.get("apiVersion").asText()).isEqualTo("keda.sh/v1alpha1");
        assertThat(scaled.at("/metadata/namespace").asText())
                .isEqualTo(deployment.at("/metadata/namespace").asText());
        assertThat(scaled.at("/spec/scaleTargetRef/kind").asText()).isEqualTo("Deployment");
        assertThat(scaled.at("/spec/scaleTargetRef/apiVersion").asText())
                .isEqualTo(deployment.get("apiVersion").asText());
        assertThat(scaled.at("/spec/scaleTargetRef/name").asText())
                .isEqualTo(deployment.at("/metadata/name").asText());
        assertThat(deployment.at("/spec").has("replicas"))
                .as("a count kubectl apply would reset")
                .isFalse();

        int min = scaled.at("/spec/minReplicaCount").asInt();
        int max = scaled.at("/spec/maxReplicaCount").asInt();
        int unavailable = only(resources, "PodDisruptionBudget")
                .at("/spec/maxUnavailable")
                .asInt();
        assertThat(min).as("pods left while the budget takes one").isGreaterThan(unavailable);
        assertThat(min).isLessThanOrEqualTo(max);
        assertThat(scaled.at("/spec/fallback/replicas").asInt()).isBetween(min, max);

        JsonNode triggers = scaled.at("/spec/triggers");
        assertThat(triggers).hasSize(1);
        JsonNode trigger = triggers.get(0);
        assertThat(trigger.get("type").asText()).isEqualTo("prometheus");
        assertThat(trigger.get("metricType").asText()).isEqualTo("AverageValue");
        assertThat(trigger.at("/metadata/serverAddress").asText()).startsWith("http");
        assertThat(trigger.at("/metadata/threshold").asText())
                .as("one pod for each worker's run slots")
                .isEqualTo(config(resources).get("SLUICE_DISPATCH_MAX_RUNNING"));

        String query = trigger.at("/metadata/query").asText();
        Program.Result checked = Program.node(JSON.writeValueAsString(List.of(query)), "check-promql.mjs");
        assertThat(checked.exitCode()).as(checked.output()).isZero();
        List<String> selected = texts(JSON.readTree(checked.stdout()).at("/0/metrics"));
        assertThat(selected).containsExactlyInAnyOrder("sluice_queue_depth", "sluice_dispatches_running");
        assertThat(documentedMetrics()).as("metrics docs/operations.md names").containsAll(selected);
        assertThat(Files.readString(Path.of("src/main/java/dev/sluice/metrics/QueueMeters.java")))
                .contains("\"sluice.queue.depth\"");
    }

    /**
     * Every replica on one PostgreSQL, from the Secret: a key it lacks stops
     * the pod, rather than leaving it on an embedded store no other replica
     * sees; each replica keeps its own engine, and may reach the database.
     */
    @Test
    void theReplicasShareOnePostgresqlFromTheSecretAndEachHasItsOwnEngine() throws IOException {
        List<JsonNode> resources = parse(render(overlay("replicas")));
        JsonNode deployment = only(resources, "Deployment");
        JsonNode worker = worker(deployment);
        String example = Files.readString(SECRET_EXAMPLE);
        for (String name :
                List.of("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD")) {
            JsonNode ref = find(worker.get("env"), "name", name).at("/valueFrom/secretKeyRef");
            assertThat(ref.get("name").asText()).as(name).isEqualTo("sluice-secrets");
            assertThat(ref.get("key").asText()).isEqualTo(name);
            assertThat(ref.path("optional").asBoolean(false))
                    .as(name + " optional")
                    .isFalse();
            assertThat(example).as("the example Secret shows " + name).contains(name + ":");
        }
        assertThat(pod(deployment).at("/initContainers"))
                .isEqualTo(
                        pod(only(parse(render(overlay("dind"))), "Deployment")).at("/initContainers"));
        // Relayed reads are signed with the replicas' own secret, required of the same Secret (ADR 0072).
        JsonNode relay =
                find(worker.get("env"), "name", "SLUICE_WORKER_RELAY_SECRETS").at("/valueFrom/secretKeyRef");
        assertThat(relay.get("name").asText()).isEqualTo("sluice-secrets");
        assertThat(relay.get("key").asText()).isEqualTo("SLUICE_WORKER_RELAY_SECRETS");
        assertThat(relay.path("optional").asBoolean(false)).isFalse();
        assertThat(example).contains("SLUICE_WORKER_RELAY_SECRETS:");
        assertThat(find(worker.get("env"), "name", "SLUICE_WORKER_ADVERTISED_URL")
                        .get("value")
                        .asText())
                .isEqualTo("http://$(POD_IP):8080");

        List<String> egressPorts = new ArrayList<>();
        only(resources, "NetworkPolicy")
                .at("/spec/egress")
                .forEach(rule -> rule.path("ports")
                        .forEach(p -> egressPorts.add(p.path("port").asText())));
        assertThat(egressPorts).contains("53", "5432");
    }

    // --- helpers ------------------------------------------------------------------------------

    private static Path overlay(String name) {
        return KUBERNETES.resolve("overlays").resolve(name);
    }

    /** Renders with kubectl, once per directory in this class: the manifests do not change under the tests. */
    private static String render(Path dir) {
        return RENDERS.computeIfAbsent(dir, d -> {
            Program.Result result = Program.run("", Duration.ofSeconds(60), "kubectl", "kustomize", d.toString());
            assertThat(result.exitCode())
                    .as("kubectl kustomize %s: %s", d, result.stderr())
                    .isZero();
            return result.stdout();
        });
    }

    private static String write(String name, String yaml) throws IOException {
        Path file = RENDERED.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        return file.toString();
    }

    private static List<JsonNode> parse(String yaml) throws IOException {
        return YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml).readAll().stream()
                .filter(n -> n != null && !n.isNull() && !n.isMissingNode())
                .toList();
    }

    private static JsonNode only(List<JsonNode> resources, String kind) {
        List<JsonNode> found = resources.stream()
                .filter(r -> kind.equals(r.path("kind").asText()))
                .toList();
        assertThat(found).as("resources of kind %s", kind).hasSize(1);
        return found.get(0);
    }

    private static JsonNode only(List<JsonNode> resources, String kind, String name) {
        List<JsonNode> found = resources.stream()
                .filter(r -> kind.equals(r.path("kind").asText()))
                .filter(r -> name.equals(r.at("/metadata/name").asText()))
                .toList();
        assertThat(found).as("%s %s", kind, name).hasSize(1);
        return found.get(0);
    }

    private static ObjectNode pod(JsonNode deployment) {
        return (ObjectNode) deployment.at("/spec/template/spec");
    }

    private static JsonNode worker(JsonNode deployment) {
        return find(pod(deployment).get("containers"), "name", "sluice");
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        assertThat(array).as("a list holding %s=%s", field, value).isNotNull();
        for (JsonNode item : array) {
            if (value.equals(item.path(field).asText())) {
                return item;
            }
        }
        throw new AssertionError("no item with " + field + "=" + value + " in " + array);
    }

    private static Map<String, String> config(List<JsonNode> resources) {
        return YAML.convertValue(only(resources, "ConfigMap", "sluice-config").get("data"), Map.class);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array instanceof ArrayNode) {
            array.forEach(n -> texts.add(n.asText()));
        }
        return texts;
    }

    private static boolean selects(JsonNode selector, JsonNode labels) {
        assertThat(selector).isNotEmpty();
        List<String> missing = new ArrayList<>();
        selector.fields().forEachRemaining(e -> {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                missing.add(e.getKey());
            }
        });
        return missing.isEmpty();
    }

    private static String applicationProperty(String name) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        String value = properties.getProperty(name);
        assertThat(value).as(name + " in application.properties").isNotNull();
        return value;
    }

    /** "60s", "1m" or ISO-8601 "PT60S", as the worker reads durations. */
    private static Duration duration(String text) {
        Matcher m = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(text);
        if (!m.matches()) {
            return Duration.parse(text);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** The metrics docs/operations.md's table names (MetricsIT holds the table to what the worker exposes). */
    private static Set<String> documentedMetrics() throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("^\\| ([^|]+) \\|", Pattern.MULTILINE)
                .matcher(Files.readString(Path.of("docs/operations.md")));
        while (m.find()) {
            Matcher metric = Pattern.compile("`(sluice_[a-z_]+)`").matcher(m.group(1));
            while (metric.find()) {
                names.add(metric.group(1));
            }
        }
        assertThat(names).contains("sluice_dispatches_accepted_total");
        return names;
    }

    /**
     * The environment names of the settings docs/configuration.md lists: the
     * second column of each row whose first names a sluice.* property, in the
     * part made from the config interfaces and in the hand-written one
     * (ConfigurationDocumentTest holds each name to the property it sets).
     */
    private static Set<String> documentedSettings() throws IOException {
        Set<String> names = new TreeSet<>();
        Pattern row = Pattern.compile("^\\| `sluice\\.[a-z0-9.-]+` \\| `([A-Z0-9_]+)` \\|");
        for (String line : Files.readAllLines(Path.of("docs/configuration.md"))) {
            Matcher r = row.matcher(line);
            if (r.find()) {
                names.add(r.group(1));
            }
        }
        assertThat(names).contains("SLUICE_OUTPUT_STDERR_CAP", "SLUICE_WORKER_DRAIN_PERIOD", "SLUICE_LOG_JSON");
        return names;
    }
}
