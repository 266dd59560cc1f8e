package dev.sluice.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that acts on or counts what the whole engine holds: it stops
 * the engine, removes a shared volume or image, or counts every helper
 * container the engine created. The integration tests run in two JVMs at
 * once; classes marked so run alone, before them (the pom's
 * {@code engine-wide} failsafe execution).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(EngineWide.TAG)
public @interface EngineWide {

    String TAG = "engine-wide";
}
