package dev.sluice.json;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;

/**
 * A JSON document's record copied with one component changed. The request and
 * the spec have twenty-odd components each; a copy that names every one of them
 * again is a list kept in step with the record by hand, and one that forgets a
 * new component fails to compile only if its type differs. This copy reads the
 * components from the record itself, in their order, through their accessors,
 * and builds the copy with the canonical constructor (so its checks run again).
 */
public final class RecordCopies {

    private RecordCopies() {}

    /**
     * {@code record} with its component {@code name} set to {@code value};
     * an unknown name or a value of the wrong type is a programming error.
     */
    @SuppressWarnings("unchecked")
    public static <R extends Record> R with(R record, String name, Object value) {
        RecordComponent[] components = record.getClass().getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        boolean named = false;
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                named |= components[i].getName().equals(name);
                values[i] = components[i].getName().equals(name)
                        ? value
                        : components[i].getAccessor().invoke(record);
            }
            if (!named) {
                throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no component " + name);
            }
            return (R) record.getClass().getDeclaredConstructor(types).newInstance(values);
        } catch (IllegalAccessException | InstantiationException | NoSuchMethodException e) {
            throw new IllegalStateException(record.getClass().getSimpleName() + " cannot be copied", e);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
