package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.DispatchRequest;

/** dispatch_subagent offers exactly the fields POST /v1/dispatches takes, and wait. */
class RequestSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDispatchToolTakesTheRequestsFieldsAndWait() {
        JsonNode schema = new ToolSchemas(JSON, Duration.ofSeconds(50), 32768).input("dispatch_subagent");

        List<String> expected = new ArrayList<>(Arrays.stream(DispatchRequest.class.getRecordComponents())
                .map(RecordComponent::getName)
                .toList());
        expected.add("wait");
        assertThat(names(schema.path("properties"))).containsExactlyElementsOf(expected);
        assertThat(schema.path("required").toString()).isEqualTo("[\"image\"]");
        assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.at("/properties/wait/maximum").asLong()).isEqualTo(50);
        assertThat(schema.at("/properties/command/items/type").asText()).isEqualTo("string");
        assertThat(schema.at("/properties/resources/properties/memoryBytes/type")
                        .asText())
                .isEqualTo("integer");
        assertThat(schema.at("/properties/resources/additionalProperties").asBoolean(true))
                .isFalse();
        assertThat(schema.at("/properties/metadata/additionalProperties").asBoolean())
                .isTrue();
        assertThat(schema.at("/properties/callbackMode/enum").toString()).isEqualTo("[\"full\",\"digest\"]");
        assertThat(schema.at("/properties/image/description").asText()).contains("sluice.images.allowed");
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
