package dev.sluice.api;

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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.sluice.actions.Problem;
import dev.sluice.testsupport.Management;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The OpenAPI document the worker serves is the one checked in beside the
 * written contract (docs/openapi.yaml, ADR 0021), and it names every
 * operation and every refusal the contract lists. A change to the API that is
 * not carried into the checked-in document fails here; so does a document that
 * differs from one build to the next.
 */
@QuarkusTest
class OpenApiDocumentTest {

    /** The checked-in document. */
    static final Path CHECKED_IN = Path.of("docs/openapi.yaml");

    /** Set to true to write the served document over the checked-in one. */
    static final String REWRITE = "sluice.openapi.write";

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Pattern REFUSAL_ROW = Pattern.compile("^\\| `(\\d{3})` \\| `([a-z0-9-]+)` \\|");
    /**
     * Refusals no operation can declare: the REST layer's for requests that
     * match no operation, and the MCP server's tool errors.
     */
    private static final Set<String> OUTSIDE_OPERATIONS = Set.of("http-404", "http-405", "http-406", "too-many-waits");

    @Test
    void theServedDocumentIsTheCheckedInOne() throws IOException {
        String served = Management.given()
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        if (Boolean.getBoolean(REWRITE)) {
            Files.writeString(CHECKED_IN, served);
        }
        assertThat(served)
                .as(
                        "the served OpenAPI document differs from %s; if the change is meant, rewrite it with "
                                + "./mvnw -o test -Dtest=OpenApiDocumentTest -D%s=true and commit it",
                        CHECKED_IN, REWRITE)
                .isEqualTo(Files.readString(CHECKED_IN));
    }

    @Test
    void everyOperationIsNamedDescribedAndTyped() throws IOException {
        JsonNode shared = YAML.readTree(CHECKED_IN.toFile()).at("/components/parameters");
        List<String> missing = new ArrayList<>();
        operations().forEach((where, operation) -> {
            for (String field : List.of("operationId", "summary", "description")) {
                if (operation.path(field).asText().isBlank()) {
                    missing.add(where + ": " + field);
                }
            }
            for (JsonNode declared : operation.path("parameters")) {
                JsonNode parameter = declared.has("$ref")
                        ? shared.path(declared.get("$ref").asText().replace("#/components/parameters/", ""))
                        : declared;
                JsonNode schema = parameter.path("schema");
                if (!schema.has("type") && !schema.has("$ref")) {
                    missing.add(where + ": the type of parameter "
                            + parameter.path("name").asText());
                }
            }
            operation.path("responses").fields().forEachRemaining(response -> {
                if (!response.getValue().has("content") && !response.getKey().equals("204")) {
                    missing.add(where + " " + response.getKey() + ": its content");
                }
            });
        });
        assertThat(missing).isEmpty();
        assertThat(operations()).hasSize(12);
    }

    /**
     * Every status and problem type of docs/api.md, section 9, is declared
     * where an operation can answer it, as a problem detail.
     */
    @Test
    void everyRefusalOfTheWrittenContractIsDeclared() throws IOException {
        Map<String, Set<String>> typesByStatus = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of("docs/api.md"))) {
            Matcher row = REFUSAL_ROW.matcher(line);
            if (row.find() && !OUTSIDE_OPERATIONS.contains(row.group(2))) {
                typesByStatus
                        .computeIfAbsent(row.group(1), s -> new TreeSet<>())
                        .add(row.group(2));
            }
        }
        assertThat(typesByStatus).containsKeys("403", "409", "410", "413", "415", "422", "429", "503");

        Map<String, List<String>> declared = new TreeMap<>();
        operations()
                .values()
                .forEach(operation -> operation.path("responses").fields().forEachRemaining(r -> {
                    if (r.getValue().path("content").has(Problem.MEDIA_TYPE)) {
                        declared.computeIfAbsent(r.getKey(), s -> new ArrayList<>())
                                .add(r.getValue().path("description").asText());
                    }
                }));
        typesByStatus.forEach((status, types) -> {
            assertThat(declared).as("refusals declared by status").containsKey(status);
            for (String type : types) {
                assertThat(declared.get(status))
                        .as("%s %s named in a declared refusal", status, type)
                        .anyMatch(description -> description.contains(type));
            }
        });
    }

    /** Each operation of the checked-in document, by method and path. */
    private static Map<String, JsonNode> operations() throws IOException {
        Map<String, JsonNode> operations = new TreeMap<>();
        YAML.readTree(CHECKED_IN.toFile())
                .path("paths")
                .fields()
                .forEachRemaining(path -> path.getValue()
                        .fields()
                        .forEachRemaining(op -> operations.put(op.getKey() + " " + path.getKey(), op.getValue())));
        return operations;
    }
}
