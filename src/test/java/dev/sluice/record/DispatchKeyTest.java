package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

class DispatchKeyTest {

    @Property
    void aKeyNamesItsTenantAndIdBack(
            @ForAll @AlphaChars @NumericChars @Chars({'-', '_'}) @StringLength(min = 1, max = 64) String id,
            @ForAll @NumericChars @Chars({'a', 'b', 'z', '-', '_'}) @StringLength(min = 1, max = 31) String rest) {
        String tenant = "t" + rest;
        String key = DispatchKey.of(tenant, id);
        assertThat(DispatchKey.validTenant(tenant)).isTrue();
        assertThat(DispatchKey.tenantOf(key)).isEqualTo(tenant);
        assertThat(DispatchKey.idOf(key)).isEqualTo(id);
        assertThat(key).isNotEqualTo(DispatchKey.of(DispatchKey.DEFAULT_TENANT, id));
    }

    @Test
    void theDefaultTenantsKeysAreItsIdsAsBeforeTenants() {
        assertThat(DispatchKey.of("default", "review-42")).isEqualTo("review-42");
        assertThat(DispatchKey.tenantOf("review-42")).isEqualTo("default");
        assertThat(DispatchKey.idOf("review-42")).isEqualTo("review-42");
        assertThat(DispatchKey.of("acme", "review-42")).isEqualTo("acme.review-42");
    }

    @Test
    void tenantNamesAreShortLowerCaseAndDotless() {
        assertThat(DispatchKey.validTenant("team-a_1")).isTrue();
        assertThat(DispatchKey.validTenant("a".repeat(32))).isTrue();
        assertThat(DispatchKey.validTenant("a".repeat(33))).isFalse();
        assertThat(DispatchKey.validTenant("Acme")).isFalse();
        assertThat(DispatchKey.validTenant("a.b")).isFalse();
        assertThat(DispatchKey.validTenant("-a")).isFalse();
        assertThat(DispatchKey.validTenant("")).isFalse();
        assertThat(DispatchKey.validTenant(null)).isFalse();
    }
}
