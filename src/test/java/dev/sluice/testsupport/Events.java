package dev.sluice.testsupport;

import java.lang.annotation.Annotation;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;

/** CDI events outside a container: each one fired is handed to a consumer the test gives, on the firing thread. */
public final class Events {

    private Events() {}

    /** An event whose {@code fire} calls {@code observer}; qualifiers are not selected here. */
    public static <T> Event<T> to(Consumer<? super T> observer) {
        return new Event<>() {
            @Override
            public void fire(T event) {
                observer.accept(event);
            }

            @Override
            public <U extends T> CompletionStage<U> fireAsync(U event) {
                observer.accept(event);
                return CompletableFuture.completedFuture(event);
            }

            @Override
            public <U extends T> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
                return fireAsync(event);
            }

            @Override
            public Event<T> select(Annotation... qualifiers) {
                throw new UnsupportedOperationException("qualified events are not fired outside a container");
            }

            @Override
            public <U extends T> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
                throw new UnsupportedOperationException("qualified events are not fired outside a container");
            }

            @Override
            public <U extends T> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
                throw new UnsupportedOperationException("qualified events are not fired outside a container");
            }
        };
    }
}
