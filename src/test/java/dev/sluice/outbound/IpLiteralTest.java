package dev.sluice.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hosts that are addresses in some spelling a resolver reads, and names that are not. */
class IpLiteralTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.0.0.1",
                "10.1.2.3",
                "[::1]",
                "::1",
                "[fe80::1%25eth0]",
                "127.1",
                "0x7f.0.0.1",
                "0x7f.1",
                "2130706433",
                "017700000001",
                "1.2.3.4.",
                "registry.0x1"
            })
    void addressesInAnySpellingAreAddressLike(String host) {
        assertThat(IpLiteral.addressLike(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"registry.example", "localhost", "r1.example.com", "10x.example", "a-1", "docker.io"})
    void namesAreNot(String host) {
        assertThat(IpLiteral.addressLike(host)).isFalse();
    }
}
