package org.claimdesk.ui.common;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Binds the generated {@code equals} and {@code hashCode} of records before the FX thread needs them.
 * A record's {@code equals} and {@code hashCode} are bound on their first call, through an invokedynamic
 * site that {@code ObjectMethods} bootstraps, slow on the console's JVM, which compiles with C1 only. Left
 * to the first refresh that compares rows in place, that cost falls inside one pulse on the FX thread.
 * Binding happens once per type for the whole JVM, so calling both methods once on any thread is enough.
 */
public final class RecordMethods {
    private RecordMethods() {
    }

    /** Calls {@code equals} and {@code hashCode} once on an instance of each type, made with default values. */
    @SafeVarargs
    public static void bind(Class<? extends Record>... types) {
        for (Class<? extends Record> type : types) {
            Record sample = sample(type);
            sample.equals(sample(type));
            sample.hashCode();
        }
    }

    /** An instance of {@code type} with every component at its default value (null, zero, false). */
    static <R extends Record> R sample(Class<R> type) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] parameterTypes = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        Object[] values = Arrays.stream(parameterTypes).map(RecordMethods::defaultValue).toArray();
        try {
            Constructor<R> canonical = type.getDeclaredConstructor(parameterTypes);
            canonical.setAccessible(true);
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot make a sample " + type.getSimpleName() + ": " + e, e);
        }
    }

    private static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type == float.class) {
            return 0.0f;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        return 0;
    }
}
