package dev.sluice.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The connect-time address rules (docs/api.md, 8.8; ADR 0056): Teredo, the
 * 6to4 relay and IPv4-mapped addresses refused, and link-local and metadata
 * addresses refused whatever the allow-list names. Addresses are drawn from
 * anywhere inside each range, built from bytes the way a resolver hands them
 * over, and their membership is checked against a plain big-integer reference.
 */
class AddressPolicyTest {

    /** Allows every address there is, as ranges: what is still refused is refused by no setting. */
    private static final AddressPolicy ALLOW_ALL = new AddressPolicy(List.of("0.0.0.0/0", "::/0", "receiver.test"));

    private static final AddressPolicy NONE = new AddressPolicy(List.of());

    /** The ranges this change added to the forbidden list, and those no allow-list opens. */
    private static final List<String> NEW_FORBIDDEN = List.of("2001::/32", "192.88.99.0/24");

    private static final List<String> NEVER = List.of(
            "169.254.0.0/16",
            "fe80::/10",
            "fd00:ec2::254/128",
            "fd20:ce::254/128",
            "100.100.100.200/32",
            "168.63.129.16/32",
            "192.0.0.192/32");

    @Property
    void everyAddressOfTeredoAndTheSixToFourRelayIsRefused(@ForAll("newForbidden") InetAddress address) {
        assertThat(NONE.permits(address)).as(address.toString()).isFalse();
    }

    @Property
    void everyIpv4MappedAddressThatKeepsItsIpv6FormIsRefused(@ForAll("ipv4") byte[] v4) throws Exception {
        InetAddress mapped = Inet6Address.getByAddress(null, mapped(v4), -1);
        assertThat(mapped).isInstanceOf(Inet6Address.class);
        assertThat(NONE.permits(mapped)).as(mapped.toString()).isFalse();
        // Java reads the same bytes as the IPv4 address they map, which the IPv4 rules then judge.
        InetAddress read = InetAddress.getByAddress(mapped(v4));
        assertThat(NONE.permits(read)).isEqualTo(NONE.permits(InetAddress.getByAddress(v4)));
    }

    @Property
    void linkLocalAndMetadataAddressesAreRefusedWhateverIsAllowed(@ForAll("never") InetAddress address) {
        assertThat(ALLOW_ALL.permits(address)).as(address.toString()).isFalse();
        assertThat(ALLOW_ALL.permitsForAllowedHost(address))
                .as(address.toString())
                .isFalse();
        assertThat(new AddressPolicy(List.of(address.getHostAddress())).permits(address))
                .isFalse();
    }

    @Property
    void aMetadataAddressInsideAnIpv6FormIsRefusedWhateverIsAllowed(@ForAll("neverV4") byte[] v4) throws Exception {
        for (byte[] form : List.of(nat64(v4), sixToFour(v4), compatible(v4), mapped(v4))) {
            InetAddress address = Inet6Address.getByAddress(null, form, -1);
            assertThat(ALLOW_ALL.permits(address)).as(address.toString()).isFalse();
            assertThat(ALLOW_ALL.permitsForAllowedHost(address))
                    .as(address.toString())
                    .isFalse();
        }
    }

    @Property
    void anAllowListOpensEveryOtherAddress(@ForAll("anyAddress") InetAddress address) {
        boolean refusedByNoSetting = NEVER.stream().anyMatch(range -> inRange(range, address))
                || embedded(address).stream().anyMatch(v4 -> NEVER.stream().anyMatch(range -> inRange(range, v4)));
        assertThat(ALLOW_ALL.permits(address)).as(address.toString()).isEqualTo(!refusedByNoSetting);
        assertThat(ALLOW_ALL.permitsForAllowedHost(address)).isEqualTo(!refusedByNoSetting);
    }

    @Test
    void publicAddressesStayPermitted() throws Exception {
        for (String a : List.of("93.184.216.34", "8.8.8.8", "2606:4700::1111", "2002:808:808::", "192.88.98.1")) {
            assertThat(NONE.permits(InetAddress.getByName(a))).as(a).isTrue();
        }
        assertThat(NONE.permits(InetAddress.getByName("2001:db9::1"))).isTrue();
        assertThat(NONE.permits(InetAddress.getByName("2001:1::1"))).isTrue();
    }

    @Test
    void aNameOnTheAllowListResolvesToPrivateAddressesButNeverToMetadata() throws Exception {
        AddressPolicy policy = new AddressPolicy(List.of("receiver.test"));
        GuardedDnsResolver resolver = new GuardedDnsResolver(policy, host -> switch (host) {
            case "receiver.test" ->
                addresses("10.0.0.7", "169.254.169.254", "fd00:ec2::254", "127.0.0.1", "100.100.100.200");
            case "metadata-only.test" -> addresses("169.254.169.254");
            default -> throw new UnknownHostException(host);
        });

        assertThat(Arrays.stream(resolver.resolve("receiver.test")).map(InetAddress::getHostAddress))
                .containsExactly("10.0.0.7", "127.0.0.1");

        AddressPolicy listed = new AddressPolicy(List.of("metadata-only.test"));
        GuardedDnsResolver alone = new GuardedDnsResolver(listed, host -> addresses("169.254.169.254"));
        assertThatThrownBy(() -> alone.resolve("metadata-only.test"))
                .isInstanceOf(GuardedDnsResolver.RefusedAddress.class)
                .hasMessage("metadata-only.test resolves only to addresses callbacks may not reach");
    }

    @Provide
    Arbitrary<InetAddress> newForbidden() {
        return Arbitraries.of(NEW_FORBIDDEN).flatMap(AddressPolicyTest::inside);
    }

    @Provide
    Arbitrary<InetAddress> never() {
        return Arbitraries.of(NEVER).flatMap(AddressPolicyTest::inside);
    }

    @Provide
    Arbitrary<byte[]> neverV4() {
        return Arbitraries.of(NEVER.stream().filter(r -> !r.contains(":")).toList())
                .flatMap(AddressPolicyTest::inside)
                .map(InetAddress::getAddress);
    }

    @Provide
    Arbitrary<byte[]> ipv4() {
        return Arbitraries.bytes().array(byte[].class).ofSize(4);
    }

    /** Anywhere, and often inside or beside the ranges that matter. */
    @Provide
    Arbitrary<InetAddress> anyAddress() {
        Arbitrary<InetAddress> random = Arbitraries.oneOf(
                        Arbitraries.bytes().array(byte[].class).ofSize(4),
                        Arbitraries.bytes().array(byte[].class).ofSize(16))
                .map(AddressPolicyTest::address);
        Arbitrary<InetAddress> near = Arbitraries.of(NEVER).flatMap(AddressPolicyTest::inside);
        Arbitrary<InetAddress> embedded = neverV4()
                .flatMap(v4 -> Arbitraries.of(nat64(v4), sixToFour(v4), compatible(v4)))
                .map(AddressPolicyTest::address);
        return Arbitraries.frequencyOf(Tuple.of(4, random), Tuple.of(1, near), Tuple.of(1, embedded));
    }

    /** Addresses anywhere inside a CIDR: its network bits fixed, the rest random. */
    private static Arbitrary<InetAddress> inside(String cidr) {
        String[] parts = cidr.split("/");
        byte[] network = address(parts[0]).getAddress();
        int prefix = Integer.parseInt(parts[1]);
        return Arbitraries.bytes().array(byte[].class).ofSize(network.length).map(random -> {
            byte[] a = network.clone();
            for (int bit = prefix; bit < a.length * 8; bit++) {
                int mask = 0x80 >>> (bit % 8);
                a[bit / 8] = (byte) ((a[bit / 8] & ~mask) | (random[bit / 8] & mask));
            }
            return address(a);
        });
    }

    /** The reference: the address's leading bits, as a number, against the range's. */
    private static boolean inRange(String cidr, InetAddress address) {
        String[] parts = cidr.split("/");
        byte[] network = address(parts[0]).getAddress();
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int shift = a.length * 8 - Integer.parseInt(parts[1]);
        return new BigInteger(1, a).shiftRight(shift).equals(new BigInteger(1, network).shiftRight(shift));
    }

    /** The IPv4 addresses an IPv6 address embeds in the forms the policy reads. */
    private static List<InetAddress> embedded(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length != 16) {
            return List.of();
        }
        boolean nat64 = inRange("64:ff9b::/96", address);
        boolean low = inRange("::/96", address) || inRange("::ffff:0:0/96", address);
        if (nat64 || low) {
            return List.of(address(Arrays.copyOfRange(b, 12, 16)));
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return List.of(address(Arrays.copyOfRange(b, 2, 6)));
        }
        return List.of();
    }

    private static byte[] mapped(byte[] v4) {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        System.arraycopy(v4, 0, b, 12, 4);
        return b;
    }

    private static byte[] compatible(byte[] v4) {
        byte[] b = new byte[16];
        System.arraycopy(v4, 0, b, 12, 4);
        return b;
    }

    private static byte[] nat64(byte[] v4) {
        byte[] b = address("64:ff9b::").getAddress();
        System.arraycopy(v4, 0, b, 12, 4);
        return b;
    }

    private static byte[] sixToFour(byte[] v4) {
        byte[] b = new byte[16];
        b[0] = 0x20;
        b[1] = 0x02;
        System.arraycopy(v4, 0, b, 2, 4);
        return b;
    }

    private static InetAddress[] addresses(String... literals) {
        return Arrays.stream(literals).map(AddressPolicyTest::address).toArray(InetAddress[]::new);
    }

    private static InetAddress address(String literal) {
        return IpLiteral.parse(literal).orElseThrow();
    }

    /** As a resolver hands them over: an IPv6 form stays IPv6. */
    private static InetAddress address(byte[] bytes) {
        try {
            return bytes.length == 16 ? Inet6Address.getByAddress(null, bytes, -1) : InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @org.junit.jupiter.api.Test
    void embeddedIpv4IsJudgedAsIpv4() throws Exception {
        assertThat(AddressPolicy.forbidden(InetAddress.getByName("::ffff:8.8.8.8")))
                .isFalse();
        assertThat(AddressPolicy.forbidden(InetAddress.getByName("2002:808:808::")))
                .isFalse();
        assertThat(AddressPolicy.forbidden(InetAddress.getByName("2002:c0a8:101::")))
                .isTrue();
    }
}
