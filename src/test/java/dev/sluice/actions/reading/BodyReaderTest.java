package dev.sluice.actions.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupRequest;

/**
 * The bounded reader on synthetic bodies: each bound refuses the first token
 * past it, naming the field, before the rest of the body is read or anything
 * of it built; bodies within every bound are read as the API reads them.
 */
class BodyReaderTest {

    private static final BodyLimits LIMITS = new BodyLimits(12 << 20, 50, 100);
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
    private final BodyReader reader = new BodyReader(JSON, LIMITS);

    @Test
    void aGroupIsRefusedAtItsFirstMemberPastTheMaximumBeforeTheRestIsRead() {
        Generated body = new Generated("{\"dispatches\":[", "{}", 4_000_000, "]}");
        assertThatThrownBy(() -> reader.read(body, GroupRequest.class, BodyReader.Shape.GROUP, DecodingBudget.NONE))
                .isInstanceOfSatisfying(BodyRefused.class, refused -> {
                    assertThat(refused.kind()).isEqualTo(BodyRefused.Kind.INVALID);
                    assertThat(refused.field()).isEqualTo("dispatches");
                    assertThat(refused.detail()).isEqualTo("must hold 1 to 50 dispatches");
                });
        // 12 MB of members; the parser reads ahead a block or two, not the rest.
        assertThat(body.delivered).isLessThan(64 * 1024);
    }

    @Test
    void aGroupOfTheMaximumIsReadWhole() throws IOException {
        GroupRequest group = group(repeat("{\"image\":\"x\"}", 50));
        assertThat(group.dispatches()).hasSize(50);
        assertThatThrownBy(() -> group(repeat("{\"image\":\"x\"}", 51)))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.field()).isEqualTo("dispatches"));
    }

    @Test
    void metadataHasABudgetOfValuesAndDepth() throws IOException {
        assertThat(dispatch("{\"image\":\"x\",\"metadata\":{\"a\":[" + repeat("[]", 999) + "]}}")
                        .metadata())
                .containsKey("a");
        assertRefused("{\"image\":\"x\",\"metadata\":{\"a\":[" + repeat("[]", 1000) + "]}}", "metadata")
                .isEqualTo("holds more than 1000 values");
        // Sixteen levels below the metadata object, and one more.
        assertThat(dispatch("{\"image\":\"x\",\"metadata\":{\"a\":" + "[".repeat(16) + "]".repeat(16) + "}}")
                        .metadata())
                .containsKey("a");
        assertRefused("{\"image\":\"x\",\"metadata\":{\"a\":" + "[".repeat(17) + "]".repeat(17) + "}}", "metadata")
                .isEqualTo("is nested more than 16 levels deep");
        // Each metadata has its own budget: the group's and every member's.
        String full = "{\"a\":[" + repeat("0", 999) + "]}";
        assertThat(group("{\"image\":\"x\",\"metadata\":" + full + "},{\"image\":\"y\",\"metadata\":" + full + "}")
                        .dispatches())
                .hasSize(2);
        assertThatThrownBy(() -> reader.read(
                        "{\"metadata\":" + full + ",\"dispatches\":[{\"image\":\"x\",\"metadata\":{\"b\":["
                                + repeat("0", 1000) + "]}}]}",
                        GroupRequest.class,
                        BodyReader.Shape.GROUP))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.field()).isEqualTo("dispatches.0.metadata"));
    }

    @Test
    void nestingPastTheDocumentsDepthNamesTheFieldItStartsIn() {
        assertRefused("{\"image\":\"x\",\"unknown\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}", "unknown")
                .isEqualTo("is nested more than 32 levels deep");
        // An unknown field's value is read whole before binding refuses the field: it is held to the depth too.
        assertThatThrownBy(() -> group("{\"image\":\"x\",\"foo\":" + "[".repeat(40) + "]".repeat(40) + "}"))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.field()).isEqualTo("dispatches.0.foo"));
        // A key is the client's: a refusal repeats no more than its start.
        String key = "k".repeat(40_000);
        assertRefused("{\"image\":\"x\",\"" + key + "\":" + "[".repeat(40) + "]".repeat(40) + "}", "k".repeat(63) + "…")
                .isEqualTo("is nested more than 32 levels deep");
    }

    @Test
    void arraysAndObjectsTheContractBoundsAreCountedAsTheyAreRead() throws IOException {
        assertThat(dispatch("{\"image\":\"x\",\"command\":[" + repeat("\"a\"", 4096) + "]}")
                        .command())
                .hasSize(4096);
        assertRefused("{\"image\":\"x\",\"command\":[" + repeat("\"a\"", 4097) + "]}", "command")
                .isEqualTo("has more than 4096 arguments");
        assertRefused("{\"image\":\"x\",\"env\":{" + variables(4097) + "}}", "env")
                .isEqualTo("has more than 4096 variables");
        assertRefused("{\"image\":\"x\",\"secrets\":{" + variables(4097) + "}}", "secrets")
                .isEqualTo("has more than 4096 variables");
        assertRefused("{\"image\":\"x\",\"output\":{\"project\":[" + repeat("\"/a\"", 65) + "]}}", "output.project")
                .isEqualTo("has more than 64 pointers");
        assertRefused(
                        "{\"image\":\"x\",\"workspace\":{\"files\":[" + repeat("{\"path\":\"a\"}", 101) + "]}}",
                        "workspace.files")
                .isEqualTo("has more than 100 files, the most entries a workspace holds");
    }

    @Test
    void aBodyOfTooManyTokensIsTooLargeAsAWhole() {
        // A key and a value per entry, under a field the contract does not bound: 200,000 tokens and more.
        assertThatThrownBy(
                        () -> dispatch("{\"image\":\"x\",\"metadata\":null,\"unknown\":{" + variables(100_000) + "}}"))
                .isInstanceOfSatisfying(BodyRefused.class, refused -> {
                    assertThat(refused.kind()).isEqualTo(BodyRefused.Kind.TOO_LARGE);
                    assertThat(refused.detail()).contains("more than 200000 JSON tokens");
                });
    }

    @Test
    void aNumberLongerThanJacksonReadsIsTooLarge() {
        assertThatThrownBy(() -> dispatch("{\"image\":\"x\",\"maxAttempts\":" + "9".repeat(1001) + "}"))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.kind()).isEqualTo(BodyRefused.Kind.TOO_LARGE));
    }

    @Test
    void withinTheBoundsABodyIsReadAsStrictlyAsBefore() throws IOException {
        assertThat(reader.read(
                        new ByteArrayInputStream(new byte[0]),
                        DispatchRequest.class,
                        BodyReader.Shape.DISPATCH,
                        DecodingBudget.NONE))
                .isNull();
        assertThat(dispatch("null")).isNull();
        assertThatThrownBy(() -> dispatch("{\"image\":\"x\",\"imagee\":1}"))
                .isInstanceOf(UnrecognizedPropertyException.class);
        assertThatThrownBy(() -> dispatch("{\"image\":\"x\"} {}")).isInstanceOf(MismatchedInputException.class);
        assertThatThrownBy(() -> dispatch("{\"image\":\"x\",\"image\":\"y\"}")).isInstanceOf(JsonParseException.class);
        DispatchRequest read = dispatch("{\"image\":\"x\",\"env\":{\"A\":\"1\"},\"resources\":{\"cpus\":1},"
                + "\"metadata\":{\"task\":{\"labels\":[\"a\",true,null,1.5]}}}");
        assertThat(read.env()).containsEntry("A", "1");
        assertThat(read.resources().cpus()).isEqualTo(1.0);
        assertThat(read.metadata()).containsKey("task");
    }

    @Test
    void theGrantIsChargedForTheTokensAsTheyAreRead() {
        DecodingBudget budget = new DecodingBudget(1 << 20, 1 << 20);
        DecodingBudget.Grant grant = budget.take("acme", 1000);
        // 16,384 entries of an unbounded field: about 33,000 tokens, 2 MiB charged at 64 bytes each.
        byte[] body = ("{\"image\":\"x\",\"unknown\":{" + variables(16_384) + "}}").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> reader.read(
                        new ByteArrayInputStream(body), DispatchRequest.class, BodyReader.Shape.DISPATCH, grant))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.kind()).isEqualTo(BodyRefused.Kind.BUSY));
        grant.close();
        assertThat(budget.used()).isZero();
    }

    @Test
    void aStreamedBodyIsChargedAsItArrivesAndRefusedPastTheLimitWhateverItDeclared() {
        BodyReader small = new BodyReader(JSON, new BodyLimits(64 * 1024, 50, 100));
        String input = "{\"image\":\"x\",\"input\":\"" + "a".repeat(64 * 1024) + "\"}";
        assertThatThrownBy(() ->
                        small.read(bytes(input), DispatchRequest.class, BodyReader.Shape.DISPATCH, DecodingBudget.NONE))
                .isInstanceOfSatisfying(BodyRefused.class, refused -> {
                    assertThat(refused.kind()).isEqualTo(BodyRefused.Kind.TOO_LARGE);
                    assertThat(refused.detail())
                            .isEqualTo("request bodies may be at most 65536 bytes; " + "nothing was created");
                });

        DecodingBudget budget = new DecodingBudget(1 << 20, 1 << 20);
        DecodingBudget.Grant other = budget.take("acme", (1 << 20) - (200 << 10));
        DecodingBudget.Grant grant = budget.take("acme", 0);
        String large = "{\"image\":\"x\",\"input\":\"" + "a".repeat(300 << 10) + "\"}";
        assertThatThrownBy(() -> reader.read(bytes(large), DispatchRequest.class, BodyReader.Shape.DISPATCH, grant))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.kind()).isEqualTo(BodyRefused.Kind.BUSY));
        assertThat(budget.used("acme"))
                .as("charged as it arrived, up to the bound")
                .isGreaterThan(1 << 19);
        grant.close();
        other.close();
        assertThat(budget.used()).isZero();
    }

    @Test
    void anMcpMessageIsScannedWithItsToolArgumentsHeldToTheRequestsBounds() {
        DecodingBudget budget = new DecodingBudget(64 << 20, 32 << 20);
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"dispatch_group\","
                + "\"arguments\":%s}}";
        assertScanRefused(String.format(call, "{\"dispatches\":[" + repeat("{}", 51) + "]}"), "dispatches");
        assertScanRefused(
                String.format(call, "{\"image\":\"x\",\"metadata\":{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}}"),
                "metadata");
        assertScanRefused(
                String.format(call, "{\"dispatches\":[{\"env\":{" + variables(4097) + "}}]}"), "dispatches.0.env");
        assertScanRefused("{\"params\":{\"_meta\":" + "[".repeat(40) + "]".repeat(40) + "}}", "params._meta");
        // A batch, and comments as the MCP server reads them.
        assertScanRefused(
                "[" + String.format(call, "{}") + ",/* a comment */"
                        + String.format(call, "{\"command\":[" + repeat("\"a\"", 4097) + "]}") + "]",
                "command");

        DecodingBudget.Grant grant = budget.take("acme", 100);
        reader.scanMcpMessage(bytes(String.format(call, "{\"dispatches\":[" + repeat("{}", 50) + "]}")), grant);
        assertThat(budget.used("acme")).as("its tokens charged").isGreaterThan(100 * BodyLimits.TOKEN_BYTES);
        // Not JSON: left to the MCP server, which reads as far and answers it.
        reader.scanMcpMessage(bytes("{\"jsonrpc\": nope"), grant);
    }

    private void assertScanRefused(String message, String field) {
        assertThatThrownBy(() -> reader.scanMcpMessage(bytes(message), DecodingBudget.NONE))
                .isInstanceOfSatisfying(
                        BodyRefused.class, r -> assertThat(r.field()).isEqualTo(field));
    }

    private org.assertj.core.api.AbstractStringAssert<?> assertRefused(String body, String field) {
        try {
            dispatch(body);
        } catch (BodyRefused refused) {
            assertThat(refused.kind()).isEqualTo(BodyRefused.Kind.INVALID);
            assertThat(refused.field()).isEqualTo(field);
            return assertThat(refused.detail());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("not refused: " + body.substring(0, Math.min(80, body.length())));
    }

    private DispatchRequest dispatch(String body) throws IOException {
        return reader.read(bytes(body), DispatchRequest.class, BodyReader.Shape.DISPATCH, DecodingBudget.NONE);
    }

    private GroupRequest group(String members) throws IOException {
        return reader.read(
                bytes("{\"dispatches\":[" + members + "]}"),
                GroupRequest.class,
                BodyReader.Shape.GROUP,
                DecodingBudget.NONE);
    }

    private static InputStream bytes(String body) {
        return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String repeat(String unit, int n) {
        return String.join(",", java.util.Collections.nCopies(n, unit));
    }

    private static String variables(int n) {
        StringBuilder entries = new StringBuilder();
        for (int i = 0; i < n; i++) {
            entries.append(i == 0 ? "" : ",").append("\"V").append(i).append("\":\"\"");
        }
        return entries.toString();
    }

    /** A body made as it is read, counting what it delivered: {@code head}, {@code unit} n times, {@code tail}. */
    private static final class Generated extends InputStream {

        private final byte[] head;
        private final byte[] unit;
        private final byte[] tail;
        private final long total;
        private long position;
        long delivered;

        Generated(String head, String unit, int n, String tail) {
            this.head = head.getBytes(StandardCharsets.UTF_8);
            this.unit = ("," + unit).getBytes(StandardCharsets.UTF_8);
            this.tail = tail.getBytes(StandardCharsets.UTF_8);
            this.total = this.head.length + (long) n * this.unit.length - 1 + this.tail.length;
        }

        @Override
        public int read() {
            if (position >= total) {
                return -1;
            }
            delivered++;
            return at(position++);
        }

        private int at(long p) {
            if (p < head.length) {
                return head[(int) p];
            }
            long inUnits = p - head.length + 1; // the first unit has no comma
            long units = total - tail.length - head.length + 1;
            if (inUnits < units) {
                return unit[(int) (inUnits % unit.length)];
            }
            return tail[(int) (p - (total - tail.length))];
        }
    }
}
