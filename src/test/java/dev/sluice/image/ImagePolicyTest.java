package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sluice.outbound.IpLiteral;

class ImagePolicyTest {

    @Test
    void aStarAllowsAnything() {
        assertThat(allows(new ImagePolicy(List.of("*")), "anything/at:all")).isTrue();
    }

    @Test
    void patternsMatchWholeReferencesWithStarsAsWildcards() {
        ImagePolicy policy = new ImagePolicy(List.of("registry.example/agents/*", " sluice-agent:* ", ""));
        assertThat(allows(policy, "registry.example/agents/reviewer:1.4")).isTrue();
        assertThat(allows(policy, "sluice-agent:test")).isTrue();
        assertThat(allows(policy, "registry.example/other/x")).isFalse();
        assertThat(allows(policy, "evil.example/registry.example/agents/x")).isFalse();
        assertThat(allows(policy, "sluice-agent")).isFalse();
    }

    /** A registry named by an address or as localhost is the worker's own network: `*` does not reach it (issue 38). */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "127.0.0.1:5443/sluice/agent:test",
                "localhost:5443/sluice/agent:test",
                "10.1.2.3/agents/x:1",
                "[::1]:5000/agents/x",
                "[fd00:ec2::254]/x",
                "169.254.169.254/x",
                "127.1:5000/x",
                "0x7f.0.0.1:5000/x",
                "2130706433:5000/x",
                "8.8.8.8/x",
                "registry.localhost/x",
                "LOCALHOST:5000/x",
                "127.0.0.1:5443/sluice/agent:test@sha256:ab00000000000000000000000000000000000000000000000000000000000000"
            })
    void aRegistryNamedByAnAddressOrLocalhostIsRefusedByDefault(String image) {
        ImagePolicy policy = new ImagePolicy(List.of("*"));
        assertThat(allows(policy, image)).isFalse();
        assertThat(policy.refusal(image))
                .hasValueSatisfying(
                        why -> assertThat(why).contains("names its registry by an address or as localhost"));
        assertThat(policy.allowsResolved(List.of(image.replaceFirst(":[a-z]+$", "") + "@sha256:00")))
                .isFalse();
    }

    @Test
    void onlyAPatternThatNamesTheRegistryLiterallyAllowsIt() {
        ImagePolicy policy = new ImagePolicy(List.of(
                "*", "127.0.0.1:5443/*", "Localhost:5443/sluice/*", "[::1]:5000/agents/*", "10.1.2.3/agents/x:1"));
        assertThat(allows(policy, "127.0.0.1:5443/sluice/agent:test")).isTrue();
        assertThat(allows(policy, "localhost:5443/sluice/agent:test")).isTrue();
        assertThat(allows(policy, "LOCALHOST:5443/sluice/agent:test")).isTrue();
        assertThat(allows(policy, "[::1]:5000/agents/x")).isTrue();
        assertThat(allows(policy, "10.1.2.3/agents/x:1")).isTrue();
        assertThat(allows(policy, "127.0.0.1:5443/sluice/agent:test@sha256:" + "0".repeat(64)))
                .isTrue();
        assertThat(policy.allowsResolved(List.of("127.0.0.1:5443/sluice/agent@sha256:00")))
                .isTrue();

        assertThat(allows(policy, "127.0.0.1:5444/sluice/agent:test"))
                .as("another port")
                .isFalse();
        assertThat(allows(policy, "localhost:5443/other/x")).as("another path").isFalse();
        assertThat(allows(policy, "10.1.2.3/agents/x:2")).isFalse();
        assertThat(allows(policy, "[::1]/agents/x")).isFalse();
        // A registry part with a * names no registry: it does not open addresses.
        ImagePolicy wild = new ImagePolicy(List.of("127.0.0.*:5443/*", "*:5443/*", "*/agents/*", "10.*"));
        for (String image : List.of("127.0.0.1:5443/x", "localhost:5443/x", "10.1.2.3/agents/x", "10.0.0.1/x")) {
            assertThat(allows(wild, image)).as(image).isFalse();
        }
        // Public registries and Hub's images are judged by the patterns as before.
        assertThat(allows(policy, "registry.example/agents/x:1")).isTrue();
        assertThat(allows(policy, "sluice-agent:test")).isTrue();
        assertThat(allows(policy, "docker.io/library/busybox")).isTrue();
    }

    @Test
    void aPullAsksOnlyARegistryWhoseNameLeadsToPublicAddressesOrThatAPatternNames() throws Exception {
        Map<String, String> dns = Map.of(
                "registry.example", "93.184.216.34",
                "internal.example", "10.0.0.5",
                "rebound.example", "127.0.0.1",
                "metadata.example", "169.254.169.254",
                "named.internal", "10.0.0.6",
                "registry-1.docker.io", "54.227.20.253");
        ImagePolicy policy = new ImagePolicy(List.of("*", "named.internal:5000/*"), host -> {
            String address = dns.get(host);
            if (address == null) {
                throw new UnknownHostException(host);
            }
            return new InetAddress[] {IpLiteral.parse(address).orElseThrow()};
        });
        assertThat(policy.mayPullFrom("registry.example")).isTrue();
        assertThat(policy.mayPullFrom("registry.example:5000")).isTrue();
        assertThat(policy.mayPullFrom("docker.io")).isTrue();
        assertThat(policy.mayPullFrom("internal.example")).isFalse();
        assertThat(policy.mayPullFrom("rebound.example:443")).isFalse();
        assertThat(policy.mayPullFrom("metadata.example")).isFalse();
        assertThat(policy.mayPullFrom("named.internal:5000"))
                .as("named by a pattern")
                .isTrue();
        assertThat(policy.mayPullFrom("named.internal"))
                .as("another port: not named")
                .isFalse();
        assertThat(policy.mayPullFrom("127.0.0.1:5443")).isFalse();
        assertThat(policy.mayPullFrom("unknown.example"))
                .as("left to the engine, which fails as it would have")
                .isTrue();
    }

    @Test
    void regexCharactersInPatternsAreLiteral() {
        ImagePolicy policy = new ImagePolicy(List.of("reg.example/a+b:1"));
        assertThat(allows(policy, "reg.example/a+b:1")).isTrue();
        assertThat(allows(policy, "regXexample/aab:1")).isFalse();
    }

    private static boolean allows(ImagePolicy policy, String image) {
        return policy.refusal(image).isEmpty();
    }
}
