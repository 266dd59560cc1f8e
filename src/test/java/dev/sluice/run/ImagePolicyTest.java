package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class ImagePolicyTest {

    @Test
    void aStarAllowsAnything() {
        assertThat(new ImagePolicy(List.of("*")).allows("anything/at:all")).isTrue();
    }

    @Test
    void patternsMatchWholeReferencesWithStarsAsWildcards() {
        ImagePolicy policy = new ImagePolicy(List.of("registry.example/agents/*", " sluice-agent:* ", ""));
        assertThat(policy.allows("registry.example/agents/reviewer:1.4")).isTrue();
        assertThat(policy.allows("sluice-agent:test")).isTrue();
        assertThat(policy.allows("registry.example/other/x")).isFalse();
        assertThat(policy.allows("evil.example/registry.example/agents/x")).isFalse();
        assertThat(policy.allows("sluice-agent")).isFalse();
    }

    @Test
    void regexCharactersInPatternsAreLiteral() {
        ImagePolicy policy = new ImagePolicy(List.of("reg.example/a+b:1"));
        assertThat(policy.allows("reg.example/a+b:1")).isTrue();
        assertThat(policy.allows("regXexample/aab:1")).isFalse();
    }
}
