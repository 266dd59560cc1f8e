package dev.sluice.run;

import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Which images may be dispatched. */
@ConfigMapping(prefix = "sluice.images")
public interface ImagesConfig {

    /**
     * Patterns an image reference must match, comma-separated: {@code *} matches
     * any run of characters, so {@code registry.example/agents/*} allows one
     * registry path. {@code *} alone allows everything. Other images are refused
     * with 403.
     */
    @WithDefault("*")
    List<String> allowed();
}
