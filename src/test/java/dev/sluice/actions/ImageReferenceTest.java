package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImageReferenceTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "alpine",
                "alpine:3.20",
                "library/alpine",
                "registry.example/agents/reviewer:1.4",
                "localhost:5000/a/b",
                "localhost/agent",
                "Registry.Example:443/team/agent:v2",
                "a_b__c-d/e.f",
                "ghcr.io/org/agent@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                "repo:tag@sha256:0123456789abcdef0123456789abcdef",
                "[::1]:5000/agent",
                "sluice-agent:test"
            })
    void valid(String reference) {
        assertThat(ImageReference.isValid(reference)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "UPPER",
                "UPPER/case",
                "a b",
                "img:",
                ":tag",
                "img::tag",
                "/img",
                "img/",
                "img//x",
                "img@sha256:short",
                "-img",
                "img:-tag",
                "a..b/c",
                "img:tag:tag",
                "http://registry/img"
            })
    void invalid(String reference) {
        assertThat(ImageReference.isValid(reference)).isFalse();
    }

    @org.junit.jupiter.api.Test
    void overlongNamesAreRefused() {
        assertThat(ImageReference.isValid("a".repeat(256))).isFalse();
        assertThat(ImageReference.isValid("a".repeat(255))).isTrue();
    }
}
