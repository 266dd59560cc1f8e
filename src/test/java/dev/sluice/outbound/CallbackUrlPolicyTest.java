package dev.sluice.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SSRF table: every spelling of an internal address is refused at intake, before anything is stored. */
class CallbackUrlPolicyTest {

    private static final AddressPolicy ALLOW_ALL = new AddressPolicy(List.of("0.0.0.0/0", "::/0", "receiver.test"));
    private static final AddressPolicy NONE = new AddressPolicy(List.of());

    private final CallbackUrlPolicy policy = new CallbackUrlPolicy(new AddressPolicy(List.of()));

    @ParameterizedTest
    @ValueSource(
            strings = {
                // loopback, in every spelling
                "http://127.0.0.1/hook",
                "http://127.0.0.2:8080/hook",
                "http://127.1/hook",
                "http://2130706433/hook",
                "http://0177.0.0.1/hook",
                "http://0x7f.0.0.1/hook",
                "http://0x7f000001/hook",
                "http://017700000001/hook",
                "http://[::1]/hook",
                "http://[::ffff:127.0.0.1]/hook",
                "http://[::ffff:7f00:1]/hook",
                "http://[::127.0.0.1]/hook",
                "http://localhost/hook",
                "http://LOCALHOST./hook",
                "http://api.localhost/hook",
                // private, CGNAT, link-local and metadata, unspecified, broadcast, benchmark
                "http://10.1.2.3/hook",
                "http://172.16.0.1/hook",
                "http://172.31.255.255/hook",
                "http://192.168.1.1/hook",
                "http://100.64.0.1/hook",
                "http://100.100.100.200/latest",
                "http://169.254.169.254/latest/meta-data",
                // cloud metadata services by name, in any case, with a trailing dot, and below them
                "http://metadata.google.internal/computeMetadata/v1/",
                "http://METADATA.Google.Internal./computeMetadata/v1/",
                "http://metadata/computeMetadata/v1/",
                "http://metadata.goog/",
                "http://metadata.azure.com/metadata/instance",
                "http://instance-data/latest/meta-data",
                "http://instance-data.ec2.internal./latest/",
                "https://x.metadata.google.internal/hook",
                "http://0.0.0.0/hook",
                "http://0/hook",
                "http://255.255.255.255/hook",
                "http://198.18.0.1/hook",
                "http://224.0.0.1/hook",
                // IPv6 private, link-local, unspecified, multicast, NAT64 and 6to4 of private
                "http://[fc00::1]/hook",
                "http://[fd12:3456::1]/hook",
                "http://[fe80::1]/hook",
                "http://[::]/hook",
                "http://[ff02::1]/hook",
                "http://[64:ff9b::7f00:1]/hook",
                "http://[64:ff9b::808:808]/hook",
                "http://[2002:7f00:1::]/hook",
                "http://[2002:a00:1::]/hook",
                "http://[::ffff:a9fe:a9fe]/hook",
                // user info tricks, other schemes, hosts the parser cannot name
                "http://good.example@127.0.0.1/hook",
                "http://user:pass@example.com/hook",
                "http://example.com%2f@127.0.0.1/",
                "ftp://example.com/hook",
                "file:///etc/passwd",
                "gopher://example.com/",
                "http:///hook",
                "http://exa_mple.com/hook",
                "http://[::1/hook",
                "http://%31%32%37.0.0.1/hook",
                "//example.com/hook",
                "javascript:alert(1)"
            })
    void refused(String url) {
        assertThat(policy.problem(url)).as(url).isPresent();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "https://control-plane.example/hooks/dispatch",
                "http://93.184.216.34:8080/hook",
                "https://[2606:4700::1111]/hook",
                "https://cafe.example/hook",
                "https://example.com/hook?token=abc",
                "https://1example.com/hook"
            })
    void accepted(String url) {
        assertThat(policy.problem(url)).as(url).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://127.0.0.1:9999/hook",
                "http://receiver.internal/hook",
                "http://10.2.3.4/hook",
                "http://[fd00::5]/hook"
            })
    void anAllowListLetsChosenInternalReceiversThrough(String url) {
        CallbackUrlPolicy allowing = new CallbackUrlPolicy(
                new AddressPolicy(List.of("127.0.0.1", "receiver.internal", "10.2.0.0/16", "fd00::/8")));
        assertThat(allowing.problem(url)).as(url).isEmpty();
        assertThat(allowing.problem("http://127.0.0.2/hook")).isPresent();
        assertThat(allowing.problem("http://[::ffff:127.0.0.1]/hook")).isPresent();
        assertThat(allowing.problem("http://127.1/hook")).isPresent();
        assertThat(allowing.problem("http://10.3.0.1/hook")).isPresent();
    }

    @org.junit.jupiter.api.Test
    void aMetadataServiceIsRefusedEvenWhenAllowListed() {
        CallbackUrlPolicy allowing =
                new CallbackUrlPolicy(new AddressPolicy(List.of("metadata.google.internal", "instance-data")));
        assertThat(allowing.problem("http://metadata.google.internal/computeMetadata/v1/"))
                .contains("names a cloud metadata service");
        assertThat(allowing.problem("http://instance-data/latest/")).contains("names a cloud metadata service");
        // Names that only contain a metadata name are someone else's.
        assertThat(policy.problem("https://metadata.example.com/hook")).isEmpty();
        assertThat(policy.problem("https://my-instance-data.example/hook")).isEmpty();
    }

    @Test
    void intakeRefusesMetadataAndLinkLocalLiteralsEvenWhenTheirRangeIsAllowed() {
        CallbackUrlPolicy allowing = new CallbackUrlPolicy(ALLOW_ALL);
        for (String url : List.of(
                "http://169.254.169.254/latest/meta-data",
                "http://169.254.170.2/v2/credentials",
                "http://[fd00:ec2::254]/latest/meta-data",
                "http://[fd20:ce::254]/computeMetadata/v1/",
                "http://100.100.100.200/latest/meta-data",
                "http://168.63.129.16/machine",
                "http://[fe80::1]/hook")) {
            assertThat(allowing.problem(url))
                    .as(url)
                    .contains("points at a link-local or cloud metadata address, which no setting allows");
        }
        assertThat(allowing.problem("http://10.1.2.3/hook")).isEmpty();
        assertThat(allowing.problem("http://receiver.test/hook")).isEmpty();
    }

    @Test
    void intakeRefusesTeredoTheRelayAndMappedLiterals() {
        CallbackUrlPolicy policy = new CallbackUrlPolicy(NONE);
        assertThat(policy.problem("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook"))
                .contains("points at an address callbacks may not reach (loopback, private, link-local or reserved)");
        assertThat(policy.problem("http://192.88.99.1/hook")).isPresent();
        assertThat(policy.problem("http://[::ffff:8.8.8.8]/hook")).contains("spells an IPv4 address in IPv6 form");
        assertThat(policy.problem("http://[64:ff9b::a9fe:a9fe]/hook")).isPresent();
    }

    /** A tenant with hosts of its own may name only those, after the worker's rules (ADR 0074). */
    @Test
    void aTenantWithHostsOfItsOwnMayNameOnlyThose() {
        CallbackUrlPolicy policy = new CallbackUrlPolicy(
                new AddressPolicy(List.of("10.0.0.0/8")),
                Map.of("beta", List.of(" Hooks.Beta.Example. ", "10.1.2.3", "2001:4860::8888")));

        for (String url : List.of(
                "https://hooks.beta.example/sluice",
                "https://HOOKS.beta.example.:8443/sluice?x=1",
                "http://10.1.2.3/hook",
                "https://[2001:4860:0:0::8888]/hook")) {
            assertThat(policy.problem("beta", url)).as(url).isEmpty();
        }
        for (String url : List.of(
                "https://hooks.alpha.example/sluice",
                "https://beta.example/sluice",
                "https://x.hooks.beta.example/sluice",
                "http://10.1.2.4/hook")) {
            assertThat(policy.problem("beta", url))
                    .as(url)
                    .contains("names a host that is not on sluice.tenants.beta.callback-allowed-hosts, the hosts this"
                            + " tenant's callbacks may go to");
        }
        // The worker's rules come first, and the tenant's list exempts nothing from them.
        assertThat(policy.problem("beta", "http://127.0.0.1/hook"))
                .contains("points at an address callbacks may not reach (loopback, private, link-local or reserved)");
        // Tenants without a list of their own are held to the worker's rules alone.
        assertThat(policy.problem("alpha", "https://hooks.alpha.example/sluice"))
                .isEmpty();
        assertThat(policy.problem("default", "http://10.9.9.9/hook")).isEmpty();
    }

    @Test
    void aTenantsHostTheWorkersRulesRefuseStopsTheStart() {
        AddressPolicy worker = new AddressPolicy(List.of("10.0.0.0/8", "receiver.internal"));
        assertThat(new CallbackUrlPolicy(worker, Map.of("beta", List.of("10.0.0.5", "receiver.internal")))
                        .problem("beta", "http://receiver.internal/hook"))
                .isEmpty();
        Map<String, String> refused = Map.of(
                "192.168.1.5",
                "sluice.tenants.beta.callback-allowed-hosts, entry 1 (192.168.1.5): the worker's callback rules"
                        + " refuse it (it points at an address callbacks may not reach (loopback, private, link-local"
                        + " or reserved)); a tenant's hosts are within the worker's, so allow it in"
                        + " sluice.callback.allowed-hosts first",
                "localhost",
                "sluice.tenants.beta.callback-allowed-hosts, entry 1 (localhost): the worker's callback rules refuse"
                        + " it (it points at this machine); a tenant's hosts are within the worker's, so allow it in"
                        + " sluice.callback.allowed-hosts first",
                "metadata.google.internal",
                "sluice.tenants.beta.callback-allowed-hosts, entry 1 (metadata.google.internal): the worker's"
                        + " callback rules refuse it (it names a cloud metadata service); a tenant's hosts are within"
                        + " the worker's, so allow it in sluice.callback.allowed-hosts first",
                "10.0.0.0/24",
                "sluice.tenants.beta.callback-allowed-hosts, entry 1 (10.0.0.0/24): a tenant's entry is one host name"
                        + " or IP address; ranges belong in sluice.callback.allowed-hosts",
                "hooks.beta.example:8443",
                "sluice.tenants.beta.callback-allowed-hosts, entry 1 (hooks.beta.example:8443): an entry is a host,"
                        + " without a port",
                " , ",
                "sluice.tenants.beta.callback-allowed-hosts names no host: leave it unset for any host the worker's"
                        + " rules take");
        refused.forEach((entry, message) -> assertThatThrownBy(() ->
                        new CallbackUrlPolicy(worker, Map.of("beta", List.of(entry.split(",", -1)))))
                .as(entry)
                .hasMessage(message));
    }
}
