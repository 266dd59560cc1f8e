package dev.sluice.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.runtime.configuration.MemorySize;

/** Which summarizer URLs a worker starts with (ADR 0056): https to a listed host, plain http to loopback only. */
class SummarizerEndpointTest {

    private static final List<String> LISTED = List.of("api.openai.com", "127.0.0.1", "LLM.Internal.", "::1");

    record TestSummarizerConfig(
            Optional<URI> url,
            Optional<List<String>> allowedHosts,
            String model,
            Optional<String> apiKey,
            Duration timeout,
            MemorySize maxInputBytes)
            implements SummarizerConfig {

        static TestSummarizerConfig of(String url, List<String> allowed) {
            return new TestSummarizerConfig(
                    Optional.ofNullable(url).map(URI::create),
                    Optional.of(allowed),
                    "m",
                    Optional.of("sk-secret"),
                    Duration.ofSeconds(1),
                    new MemorySize(BigInteger.valueOf(4096)));
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://api.openai.com/v1/chat/completions",
                "https://API.openai.com./v1/chat/completions",
                "https://llm.internal:8443/v1/chat/completions",
                "http://127.0.0.1:4000/v1/chat/completions",
                "http://[::1]:4000/v1/chat/completions"
            })
    void httpsToAListedHostOrPlainHttpToListedLoopbackIsUsed(String url) {
        assertThat(SummarizerEndpoint.checked(URI.create(url), LISTED)).isEqualTo(URI.create(url));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://api.openai.com/v1/chat/completions",
                "http://llm.internal/v1/chat/completions",
                "http://10.0.0.5/v1/chat/completions",
                "ftp://api.openai.com/v1",
                "api.openai.com/v1/chat/completions"
            })
    void plainHttpBeyondLoopbackStopsTheStart(String url) {
        assertThatThrownBy(() -> SummarizerEndpoint.checked(URI.create(url), List.of("api.openai.com", "10.0.0.5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sluice.summarizer.url ");
        assertThatThrownBy(() -> SummarizerEndpoint.checked(URI.create(url), List.of("api.openai.com")))
                .satisfiesAnyOf(
                        e -> assertThat(e)
                                .hasMessageContaining("must be https (plain http only to a loopback address)"),
                        e -> assertThat(e).hasMessageContaining("has no host the worker can read"));
    }

    @Test
    void aHostOffTheListStopsTheStartNamingTheSetting() {
        assertThatThrownBy(() -> SummarizerEndpoint.checked(
                        URI.create("https://evil.example/v1/chat/completions?key=sk-leak"), LISTED))
                .hasMessage("sluice.summarizer.url https://evil.example/v1/chat/completions names host evil.example,"
                        + " which is not on sluice.summarizer.allowed-hosts (the hosts kept output may be sent to):"
                        + " add it there");
        // Loopback is exempt from https, not from the list; a name that only ends like a listed one is another.
        assertThatThrownBy(() -> SummarizerEndpoint.checked(URI.create("http://127.0.0.2/v1"), LISTED))
                .hasMessageContaining("names host 127.0.0.2");
        assertThatThrownBy(() -> SummarizerEndpoint.checked(URI.create("https://xapi.openai.com/v1"), LISTED))
                .hasMessageContaining("names host xapi.openai.com");
        assertThatThrownBy(() -> SummarizerEndpoint.checked(URI.create("https://u:p@api.openai.com/v1"), LISTED))
                .hasMessageContaining("carries user information");
    }

    @Test
    void theProducerRefusesAtStartAndStaysOffWithoutAUrl() {
        SummaryProducer producer = new SummaryProducer();
        assertThat(producer.summarizer(TestSummarizerConfig.of(null, List.of())))
                .isSameAs(Summarizer.OFF);
        assertThatThrownBy(() -> producer.summarizer(
                        TestSummarizerConfig.of("https://api.openai.com/v1/chat/completions", List.of())))
                .hasMessageContaining("not on sluice.summarizer.allowed-hosts");
        assertThatThrownBy(() -> producer.summarizer(
                        TestSummarizerConfig.of("http://api.openai.com/v1/chat/completions", LISTED)))
                .hasMessageContaining("must be https");
        assertThat(producer.summarizer(TestSummarizerConfig.of("https://api.openai.com/v1/chat/completions", LISTED))
                        .enabled())
                .isTrue();
    }
}
