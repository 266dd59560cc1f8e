package dev.sluice.record;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How secret values are accepted and masked (ADR 0030). */
@ConfigMapping(prefix = "sluice.secrets")
public interface SecretsConfig {

    /**
     * The fewest UTF-8 bytes a secret value may have; shorter ones are refused
     * with 422. A short value would mask its bytes wherever they occur in
     * unrelated output. It is also the fewest bytes a line of a multi-line
     * secret, or an encoding's inner part, must have to be masked on its own.
     */
    @WithDefault("8")
    int minLength();
}
