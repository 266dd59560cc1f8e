package dev.sluice.events;

import java.util.Map;

/**
 * Which dispatches a stream of all of them shows: those whose metadata has
 * {@code key}, and when {@code value} is given, whose value there is that
 * string (or, for a number or boolean, prints as it).
 */
public record MetadataFilter(String key, String value) {

    boolean matches(Map<String, Object> metadata) {
        if (metadata == null || !metadata.containsKey(key)) {
            return false;
        }
        Object found = metadata.get(key);
        return value == null || (found != null && !(found instanceof Map) && value.equals(String.valueOf(found)));
    }
}
