package dev.sluice.docs;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.quarkus.runtime.configuration.MemorySize;

/**
 * What a setting's value is, in the words of the document's introduction:
 * a size takes units, a duration its two forms, a list commas, an enum one
 * of its values as SmallRye accepts them (lower case, {@code _} as {@code -}).
 */
final class SettingTypes {

    private SettingTypes() {}

    static String of(Type type) {
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            Type[] arguments = p.getActualTypeArguments();
            if (raw == Optional.class) {
                return of(arguments[0]);
            }
            if (Collection.class.isAssignableFrom(raw)) {
                return "list of " + plural(of(arguments[0]));
            }
            if (Map.class.isAssignableFrom(raw)) {
                return of(arguments[1]);
            }
            return of(raw);
        }
        Class<?> c = (Class<?>) type;
        if (c.isEnum()) {
            return Arrays.stream(c.getEnumConstants())
                    .map(v ->
                            "`" + ((Enum<?>) v).name().toLowerCase(Locale.ROOT).replace('_', '-') + "`")
                    .sorted()
                    .collect(Collectors.joining(" or "));
        }
        if (c == Duration.class) {
            return "duration";
        }
        if (c == MemorySize.class) {
            return "size";
        }
        if (c == int.class || c == long.class || c == Integer.class || c == Long.class) {
            return "integer";
        }
        if (c == double.class || c == Double.class || c == float.class || c == Float.class) {
            return "number";
        }
        if (c == boolean.class || c == Boolean.class) {
            return "boolean";
        }
        if (c == URI.class) {
            return "URL";
        }
        if (c == String.class) {
            return "text";
        }
        return c.getSimpleName();
    }

    private static String plural(String type) {
        return type.equals("text") || type.contains("`") ? type : type + "s";
    }
}
