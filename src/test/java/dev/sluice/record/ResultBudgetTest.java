package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.output.CapturedOutput;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.Overflow;
import dev.sluice.output.SecretMasker;
import dev.sluice.store.JsonColumns;
import dev.sluice.testsupport.StoreFixtures;

/** The callback budget's order, counts and markers (ADR 0033), on results built as the finisher builds them. */
class ResultBudgetTest {

    private static final String NONCE = "n0nce-n0nce0";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final JsonColumns JSON = new JsonColumns(StoreFixtures.json());

    @Test
    void aResultWithinTheBudgetIsLeftAsBuilt() {
        Ending ending = ending(capture("stdout", 4096, lines("out", 100)), capture("stderr", 4096, lines("err", 10)));
        DispatchResult unreduced = unreduced(ending);

        DispatchResult result = new ResultBudget(size(unreduced), JSON).fit(ending);

        assertThat(result).isEqualTo(unreduced);
        assertThat(result.reductions()).isEmpty();
        assertThat(json(result)).doesNotContain("reductions");
    }

    @Test
    void stdoutsHeadShrinksFirstAndOnlyAsMuchAsIsOver() {
        Ending ending =
                ending(capture("stdout", 8192, lines("out", 2000)), capture("stderr", 4096, lines("err", 2000)));
        DispatchResult unreduced = unreduced(ending);
        long max = size(unreduced) - 500;

        DispatchResult result = new ResultBudget(max, JSON).fit(ending);

        assertThat(size(result)).isLessThanOrEqualTo(max);
        assertThat(result.reductions()).hasSize(1);
        DispatchResult.Reduction cut = result.reductions().get(0);
        assertThat(cut.stream()).isEqualTo("stdout");
        assertThat(cut.part()).isEqualTo("head");
        // Only what was over, plus the marker's growth, give or take one line's worth of characters.
        assertThat(cut.bytes()).isBetween(500L, 500L + 200);
        assertThat(result.stderr()).isEqualTo(unreduced.stderr());
        assertThat(result.stderrOverflow()).isEqualTo(unreduced.stderrOverflow());
        String[] split = splitAtMarker(result.stdout().toString(), NONCE);
        String[] before = splitAtMarker(unreduced.stdout().toString(), NONCE);
        assertThat(split[2]).as("the tail").isEqualTo(before[2]);
        assertThat(before[0]).startsWith(split[0]);
        assertThat(before[0].length() - split[0].length()).isEqualTo(cut.bytes());
        assertCountsHold(
                unreduced.stdoutOverflow(),
                result.stdoutOverflow(),
                result.stdout().length());
        assertThat(split[1])
                .isEqualTo("[... sluice " + NONCE + ": "
                        + unreduced.stdoutOverflow().droppedBytes() + " of "
                        + unreduced.stdoutOverflow().originalBytes() + " bytes of stdout omitted, and "
                        + cut.bytes() + " more bytes of this text to fit the callback budget; full log: "
                        + "/v1/dispatches/d-1/logs/stdout ...]");
    }

    @Test
    void thenStdoutsTailThenStderrsHeadAndNeverStderrsTail() {
        Ending ending =
                ending(capture("stdout", 8192, lines("out", 2000)), capture("stderr", 8192, lines("err", 2000)));
        DispatchResult unreduced = unreduced(ending);
        String stderrTail = splitAtMarker(unreduced.stderr().toString(), NONCE)[2];
        // More than all of stdout: stdout is left with its marker, stderr's head goes, its tail stays.
        long max = size(unreduced) - jsonString(unreduced.stdout().toString()) - 1000;

        DispatchResult result = new ResultBudget(max, JSON).fit(ending);

        assertThat(result.reductions())
                .extracting(r -> r.stream() + " " + r.part())
                .containsExactly("stdout head", "stdout tail", "stderr head");
        String[] stdout = splitAtMarker(result.stdout().toString(), NONCE);
        assertThat(stdout[0]).isEmpty();
        assertThat(stdout[2]).isEmpty();
        String[] stderr = splitAtMarker(result.stderr().toString(), NONCE);
        assertThat(stderr[2]).isEqualTo(stderrTail);
        assertThat(size(result)).isLessThanOrEqualTo(max);
        assertThat(result.stdoutDigest()).isEqualTo(unreduced.stdoutDigest());
        assertThat(result.stderrDigest()).isEqualTo(unreduced.stderrDigest());
        assertThat(result.reductions().get(0).bytes()
                        + result.reductions().get(1).bytes())
                .isEqualTo(unreduced.stdout().length()
                        - splitAtMarker(unreduced.stdout().toString(), NONCE)[1].length()
                        - 2);
        assertCountsHold(
                unreduced.stdoutOverflow(),
                result.stdoutOverflow(),
                result.stdout().length());
        assertCountsHold(
                unreduced.stderrOverflow(),
                result.stderrOverflow(),
                result.stderr().length());
    }

    @Test
    void aWholeStreamOfControlBytesIsCutAtItsFirstQuarterAndGetsAMarkerAndAnOverflowThatDroppedNothing() {
        // 4000 bytes of \u0001 take 24000 bytes of JSON: within the cap, far over the budget.
        byte[] controls = new byte[4000];
        Arrays.fill(controls, (byte) 1);
        Ending ending = ending(capture("stdout", 8192, controls), capture("stderr", 4096, lines("err", 5)));
        DispatchResult unreduced = unreduced(ending);
        assertThat(unreduced.stdoutOverflow()).isNull();
        long max = size(unreduced) - 9000;

        DispatchResult result = new ResultBudget(max, JSON).fit(ending);

        assertThat(size(result)).isLessThanOrEqualTo(max);
        Overflow overflow = result.stdoutOverflow();
        assertThat(overflow).isNotNull();
        assertThat(overflow.originalBytes()).isEqualTo(4000);
        assertThat(overflow.droppedBytes()).isZero();
        assertThat(overflow.nonce()).isEqualTo(NONCE);
        assertThat(overflow.keptBytes()).isEqualTo(result.stdout().length());
        // Each control byte is six bytes of JSON: the head's 1000 go first, then about 500 of the tail.
        assertThat(result.reductions())
                .extracting(r -> r.stream() + " " + r.part())
                .containsExactly("stdout head", "stdout tail");
        assertThat(result.reductions().get(0).bytes()).isEqualTo(1000);
        long fromTail = result.reductions().get(1).bytes();
        assertThat(fromTail).isBetween(500L, 600L);
        String[] split = splitAtMarker(result.stdout().toString(), NONCE);
        assertThat(split[0]).isEmpty();
        assertThat(split[2]).hasSize((int) (3000 - fromTail)).matches("\u0001*");
        assertThat(result.stderr()).isEqualTo(unreduced.stderr());
    }

    @Test
    void aCutNeverSplitsACharacter() {
        byte[] text = "é€😀\n".repeat(600).getBytes(StandardCharsets.UTF_8);
        Ending ending = ending(capture("stdout", 16384, text), capture("stderr", 4096, new byte[0]));
        DispatchResult unreduced = unreduced(ending);

        for (int over = 1; over < 40; over++) {
            DispatchResult result = new ResultBudget(size(unreduced) - 200 - over, JSON).fit(ending);
            byte[] bytes = result.stdout().bytes();
            assertThat(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8))
                    .as("over by %d", over)
                    .isEqualTo(bytes);
        }
    }

    @Test
    void whenTheKeptFieldsAloneAreOverTheResultIsKeptOverTheBudget() {
        Ending ending =
                ending(capture("stdout", 4096, lines("out", 1000)), capture("stderr", 4096, lines("err", 1000)));
        DispatchResult unreduced = unreduced(ending);
        String stderrTail = splitAtMarker(unreduced.stderr().toString(), NONCE)[2];

        DispatchResult result = new ResultBudget(100, JSON).fit(ending);

        assertThat(size(result)).isGreaterThan(100);
        assertThat(splitAtMarker(result.stderr().toString(), NONCE)[2]).isEqualTo(stderrTail);
        assertThat(result.status()).isEqualTo(unreduced.status());
        assertThat(result.exitCode()).isEqualTo(unreduced.exitCode());
        assertThat(result.metadata()).isEqualTo(unreduced.metadata());
    }

    /** The capture's counts stay; keptBytes is the new length. */
    private static void assertCountsHold(Overflow before, Overflow after, long length) {
        assertThat(after.originalBytes()).isEqualTo(before.originalBytes());
        assertThat(after.droppedBytes()).isEqualTo(before.droppedBytes());
        assertThat(after.nonce()).isEqualTo(before.nonce());
        assertThat(after.keptBytes()).isEqualTo(length);
    }

    /** Head, marker line (without its framing newlines) and tail. */
    private static String[] splitAtMarker(String text, String nonce) {
        int open = text.indexOf("\n[... sluice " + nonce + ": ");
        assertThat(open).as("a marker").isGreaterThanOrEqualTo(0);
        int close = text.indexOf('\n', open + 1);
        return new String[] {text.substring(0, open), text.substring(open + 1, close), text.substring(close + 1)};
    }

    private static byte[] lines(String word, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(word).append(" \"line\" ").append(i).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static CapturedOutput capture(String stream, int cap, byte[] bytes) {
        OutputCollector collector =
                new OutputCollector(stream, cap, DispatchLinks.log("d-1", stream), NONCE, SecretMasker.NONE);
        collector.write(bytes, 0, bytes.length);
        return collector.finish();
    }

    private static Ending ending(CapturedOutput stdout, CapturedOutput stderr) {
        return Ending.of("d-1", StoreFixtures.spec("img:1", null))
                .ended(Dispatch.Status.SUCCEEDED, 0, null)
                .ran(T0, T0.plusSeconds(1))
                .output(Ending.Output.captured(stdout, stderr, NONCE))
                .build();
    }

    /** Bytes the text takes as a JSON string, quotes left out. */
    private static long jsonString(String text) {
        try {
            return StoreFixtures.json().writeValueAsBytes(text).length - 2;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The result as the finisher builds it before the budget. */
    private static DispatchResult unreduced(Ending ending) {
        return ending.result(ending.output().stdout(), ending.output().stderr(), List.of());
    }

    private static long size(DispatchResult result) {
        return json(result).getBytes(StandardCharsets.UTF_8).length;
    }

    private static String json(DispatchResult result) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JSON.write(result, out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
