package dev.sluice.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Whatever the text and the budget: a body made to fit is JSON, within the
 * budget whenever its skeleton is, and its text a start of the original cut
 * on a character, marked; reductions are taken in their order and only while
 * the body is over.
 */
class JsonBudgetTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARK = "…";
    /** The smallest a cut body can be: {@code {"text":"…","cut":true}}. */
    private static final int SKELETON = body("", true).length;

    @Property(tries = 1000)
    void aTextCutByReductionsIsJsonWithinTheBudgetAndAWholeStart(
            @ForAll("texts") String text, @ForAll @IntRange(max = 3000) int max) throws IOException {
        String clean = TextCut.wellFormed(text);
        int[] end = {clean.length()};
        // The reduction estimates escaped sizes; the byte generator writes more for characters outside the BMP.
        JsonBudget.Reduction fromTheEnd = over -> {
            if (end[0] == 0) {
                return false;
            }
            long room = Math.max(0, JsonSize.escaped(clean.substring(0, end[0])) - over);
            end[0] = TextCut.prefixEnd(clean, room, JsonSize::escaped);
            return true;
        };

        byte[] fitted = new JsonBudget(max)
                .fit(
                        () -> body(clean.substring(0, end[0]), end[0] < clean.length()),
                        b -> b.length,
                        List.of(fromTheEnd));

        assertShownStart(fitted, clean, max);
    }

    @Property(tries = 500)
    void theLongestTextThatFitsIsJsonWithinTheBudgetAndAWholeStart(
            @ForAll("texts") String text, @ForAll @IntRange(max = 3000) int max) throws IOException {
        JsonBudget budget = new JsonBudget(max);
        String clean = TextCut.wellFormed(text);

        String shown = budget.longest(text, Integer.MAX_VALUE, MARK, t -> json(t).length);

        byte[] fitted = json(shown);
        JsonNode node = JSON.readTree(fitted);
        assertThat(node.path("text").asText()).isEqualTo(shown);
        if (!shown.isEmpty()) {
            assertThat(fitted.length).isLessThanOrEqualTo(max);
        }
        if (!shown.equals(clean) && !shown.isEmpty()) {
            assertThat(shown).endsWith(MARK);
            String kept = shown.substring(0, shown.length() - MARK.length());
            assertThat(clean).startsWith(kept);
            assertThat(kept.isEmpty() || !Character.isHighSurrogate(kept.charAt(kept.length() - 1)))
                    .isTrue();
            int next = kept.length() + Character.charCount(clean.codePointAt(kept.length()));
            assertThat(json(clean.substring(0, next) + MARK).length)
                    .as("one more character")
                    .isGreaterThan(max);
        }
    }

    @Test
    void reductionsAreTakenInTheirOrderEachWhileItTakesSomethingAndTheBodyIsOver() {
        List<String> taken = new ArrayList<>();
        int[] size = {100};
        JsonBudget.Reduction first = over -> {
            if (size[0] <= 80) {
                return false; // it had 20 to give
            }
            taken.add("first " + over);
            size[0] -= 10;
            return true;
        };
        JsonBudget.Reduction second = over -> {
            taken.add("second " + over);
            size[0] -= 5;
            return true;
        };
        JsonBudget.Reduction third = over -> {
            taken.add("third " + over);
            return true;
        };

        int fitted = new JsonBudget(70).fit(() -> size[0], s -> s, List.of(first, second, third));

        assertThat(fitted).isEqualTo(70);
        assertThat(taken).containsExactly("first 30", "first 20", "second 10", "second 5");
    }

    @Test
    void aBodyThatFitsIsLeftAsWrittenAndOneThatCannotIsTheLastWritten() {
        JsonBudget.Reduction none = over -> false;

        assertThat(new JsonBudget(10).fit(() -> 10, s -> s, List.of(none))).isEqualTo(10);
        assertThat(new JsonBudget(9).fit(() -> 10, s -> s, List.of(none))).isEqualTo(10);
    }

    @Test
    void itemsAreDroppedFromTheEndUntilTheRestFits() {
        JsonBudget budget = new JsonBudget(35);

        assertThat(budget.most(5, n -> 10 + 6L * n)).isEqualTo(4);
        assertThat(budget.most(2, n -> 10 + 6L * n)).isEqualTo(2);
        assertThat(budget.most(5, n -> 40 + n)).as("not even none").isZero();
    }

    @Test
    void theFirstFormThatFitsOrNone() {
        List<Supplier<String>> forms = List.of(() -> "digests", () -> "refs");

        assertThat(new JsonBudget(7).first(forms, String::length)).isEqualTo("digests");
        assertThat(new JsonBudget(4).first(forms, String::length)).isEqualTo("refs");
        assertThat(new JsonBudget(3).first(forms, String::length)).isNull();
    }

    @Test
    void roomKeptForLaterIsTakenOffTheBudget() {
        assertThat(new JsonBudget(512).less(96).max()).isEqualTo(416);
        assertThat(new JsonBudget(512).less(96).fits(417)).isFalse();
    }

    private static void assertShownStart(byte[] fitted, String clean, int max) throws IOException {
        JsonNode node = JSON.readTree(fitted);
        String shown = node.path("text").asText();
        boolean cut = node.path("cut").asBoolean();
        if (max >= SKELETON) {
            assertThat(fitted.length).isLessThanOrEqualTo(max);
        }
        if (!cut) {
            assertThat(shown).isEqualTo(clean);
            return;
        }
        assertThat(shown).endsWith(MARK);
        String kept = shown.substring(0, shown.length() - MARK.length());
        assertThat(clean).startsWith(kept);
        assertThat(kept.isEmpty() || !Character.isHighSurrogate(kept.charAt(kept.length() - 1)))
                .as("never half a character")
                .isTrue();
    }

    /** A body with the text, marked when cut. */
    private static byte[] body(String kept, boolean cut) {
        return CompactJson.object(gen -> {
            gen.writeStringField("text", cut ? kept + MARK : kept);
            gen.writeBooleanField("cut", cut);
        });
    }

    private static byte[] json(String text) {
        return CompactJson.object(gen -> gen.writeStringField("text", text));
    }

    @Provide
    Arbitrary<String> texts() {
        return HostileText.upTo(1500);
    }
}
