package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** A worker advertises an origin and nothing else (ADR 0065). */
class AddressesTest {

    @Test
    void anOriginIsKeptWithItsPort() {
        assertThat(Addresses.checked(URI.create("http://10.1.2.3:8080"))).hasToString("http://10.1.2.3:8080");
        assertThat(Addresses.checked(URI.create("http://pod-a.sluice/"))).hasToString("http://pod-a.sluice:80");
        assertThat(Addresses.checked(URI.create("https://[fd00::1]"))).hasToString("https://[fd00::1]:443");
    }

    @Test
    void anythingMoreThanAnOriginIsRefused() {
        for (String address : new String[] {
            "http://10.1.2.3:8080/v1",
            "http://10.1.2.3:8080?x=1",
            "http://u:p@10.1.2.3:8080",
            "ftp://10.1.2.3",
            "http://10.1.2.3:8080#f",
            "pod-a:8080"
        }) {
            assertThatThrownBy(() -> Addresses.checked(URI.create(address)))
                    .as(address)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sluice.worker.advertised-url");
        }
    }

    @Test
    void unsetItIsWhereTheApiListens() {
        assertThat(Addresses.of(Optional.empty(), "127.0.0.1", 8081)).hasToString("http://127.0.0.1:8081");
        assertThat(Addresses.of(Optional.empty(), "0.0.0.0", 8080).getHost()).isNotEqualTo("0.0.0.0");
        assertThat(Addresses.of(Optional.of(URI.create("http://10.0.0.7:8080")), "0.0.0.0", 9999))
                .hasToString("http://10.0.0.7:8080");
    }
}
