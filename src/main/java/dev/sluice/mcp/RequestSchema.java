package dev.sluice.mcp;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON Schema of a request record, made from the record itself and the
 * descriptions its OpenAPI annotations already give, so that
 * {@code dispatch_subagent} takes exactly what POST /v1/dispatches takes and
 * a field added there is offered here too.
 */
final class RequestSchema {

    private RequestSchema() {}

    static ObjectNode of(Class<?> record, ObjectMapper json) {
        ObjectNode schema = json.createObjectNode();
        schema.put("type", "object");
        Schema type = record.getAnnotation(Schema.class);
        if (type != null && !type.description().isEmpty()) {
            schema.put("description", type.description());
        }
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = json.createArrayNode();
        for (RecordComponent component : record.getRecordComponents()) {
            ObjectNode property = property(component.getGenericType(), json);
            Schema annotation = component.getAccessor().getAnnotation(Schema.class);
            if (annotation != null && !annotation.description().isEmpty()) {
                property.put("description", annotation.description());
            }
            if (annotation != null && annotation.enumeration().length > 0) {
                ArrayNode values = property.putArray("enum");
                for (String value : annotation.enumeration()) {
                    values.add(value);
                }
            }
            if (annotation != null && annotation.required()) {
                required.add(component.getName());
            }
            properties.set(component.getName(), property);
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    private static ObjectNode property(Type type, ObjectMapper json) {
        ObjectNode property = json.createObjectNode();
        if (type instanceof ParameterizedType generic && generic.getRawType() == List.class) {
            property.put("type", "array");
            property.set("items", property(generic.getActualTypeArguments()[0], json));
        } else if (type instanceof ParameterizedType generic && generic.getRawType() == Map.class) {
            property.put("type", "object");
            Type values = generic.getActualTypeArguments()[1];
            if (values == Object.class) {
                property.put("additionalProperties", true);
            } else {
                property.set("additionalProperties", property(values, json));
            }
        } else if (type instanceof Class<?> c && c.isRecord()) {
            return of(c, json);
        } else if (type == String.class) {
            property.put("type", "string");
        } else if (type == Long.class || type == Integer.class || type == long.class || type == int.class) {
            property.put("type", "integer");
        } else if (type == Double.class || type == double.class) {
            property.put("type", "number");
        } else if (type == Boolean.class || type == boolean.class) {
            property.put("type", "boolean");
        }
        return property;
    }
}
