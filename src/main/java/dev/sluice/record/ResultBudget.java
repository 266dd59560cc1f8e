package dev.sluice.record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.sluice.json.JsonBudget;
import dev.sluice.json.JsonSize;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.ReducibleOutput;
import dev.sluice.store.JsonColumns;

/**
 * Keeps a result's JSON within {@code sluice.callback.max-body} (ADR 0033).
 * The stored result is the callback body, so the budget applies where the
 * result is built, once: a result over it loses text in a fixed order (the end
 * of stdout's head, then the start of stdout's tail, then the end of stderr's
 * head), each step taking only what is still over, and every step is recorded
 * in {@link DispatchResult#reductions()}. Status, exit code, overflow records,
 * digests, the report and stderr's tail are never touched, so a result whose
 * kept fields alone are over the budget is stored and sent over it.
 */
public final class ResultBudget {

    /** One step of the order: a stream and the part of it that shrinks. */
    private record Step(String stream, ReducibleOutput.Part part) {

        String partName() {
            return part.name().toLowerCase(Locale.ROOT);
        }
    }

    private static final List<Step> ORDER = List.of(
            new Step("stdout", ReducibleOutput.Part.HEAD),
            new Step("stdout", ReducibleOutput.Part.TAIL),
            new Step("stderr", ReducibleOutput.Part.HEAD));

    private final JsonBudget budget;
    private final JsonColumns json;

    public ResultBudget(long maxBody, JsonColumns json) {
        this.budget = new JsonBudget(maxBody);
        this.json = json;
    }

    /** The ending's result, reduced to the budget where its text allows. */
    DispatchResult fit(Ending ending) {
        Cutting cutting = new Cutting(ending);
        List<JsonBudget.Reduction> order = ORDER.stream()
                .map(step -> (JsonBudget.Reduction) over -> cutting.take(step, over))
                .toList();
        return budget.fit(cutting::result, this::size, order);
    }

    /** The result's JSON length, counted as it is written, never held. */
    private long size(DispatchResult result) {
        return JsonSize.written(out -> json.write(result, out));
    }

    /** The ending's streams as cut so far, and the bytes each step removed. */
    private static final class Cutting {

        private final Ending ending;
        private final Map<Step, Long> removed = new LinkedHashMap<>();
        private ReducibleOutput stdout;
        private ReducibleOutput stderr;

        Cutting(Ending ending) {
            this.ending = ending;
        }

        DispatchResult result() {
            if (removed.isEmpty()) {
                return ending.result(ending.output().stdout(), ending.output().stderr(), List.of());
            }
            List<DispatchResult.Reduction> reductions = new ArrayList<>();
            removed.forEach((step, bytes) ->
                    reductions.add(new DispatchResult.Reduction(step.stream(), step.partName(), bytes)));
            return ending.result(stdout.output(), stderr.output(), reductions);
        }

        /** Whole characters off the step's part, at least {@code over} bytes of JSON; false when it had none left. */
        boolean take(Step step, long over) {
            if (stdout == null) {
                // Only a result over the budget finds its markers.
                stdout = reducible(ending.output().stdout(), "stdout");
                stderr = reducible(ending.output().stderr(), "stderr");
            }
            int cut = (step.stream().equals("stdout") ? stdout : stderr).reduce(step.part(), over);
            if (cut == 0) {
                return false;
            }
            removed.merge(step, (long) cut, Long::sum);
            return true;
        }

        private ReducibleOutput reducible(CapturedOutput output, String stream) {
            DispatchResult.AvailableFrom from = ending.output().availableFrom();
            return new ReducibleOutput(
                    output,
                    stream,
                    DispatchLinks.log(ending.id(), stream),
                    ending.output().nonce(),
                    from == null ? 0 : from.forStream(stream.equals("stdout")));
        }
    }
}
