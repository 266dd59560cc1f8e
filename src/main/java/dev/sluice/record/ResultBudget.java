package dev.sluice.record;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

    private final long maxBody;
    private final JsonColumns json;

    public ResultBudget(long maxBody, JsonColumns json) {
        this.maxBody = maxBody;
        this.json = json;
    }

    /** The ending's result, reduced to the budget where its text allows. */
    DispatchResult fit(Ending ending) {
        DispatchResult result =
                ending.result(ending.output().stdout(), ending.output().stderr(), List.of());
        long size = size(result);
        if (size <= maxBody) {
            return result;
        }
        ReducibleOutput stdout = reducible(ending, ending.output().stdout(), "stdout");
        ReducibleOutput stderr = reducible(ending, ending.output().stderr(), "stderr");
        List<DispatchResult.Reduction> reductions = new ArrayList<>();
        for (Step step : ORDER) {
            ReducibleOutput stream = step.stream().equals("stdout") ? stdout : stderr;
            long removed = 0;
            // A first cut adds a marker or lengthens it, so measure again until it fits or the part is gone.
            while (size > maxBody) {
                int cut = stream.reduce(step.part(), size - maxBody);
                if (cut == 0) {
                    break;
                }
                removed += cut;
                List<DispatchResult.Reduction> now = new ArrayList<>(reductions);
                now.add(new DispatchResult.Reduction(step.stream(), step.partName(), removed));
                result = ending.result(stdout.output(), stderr.output(), now);
                size = size(result);
            }
            if (removed > 0) {
                reductions.add(new DispatchResult.Reduction(step.stream(), step.partName(), removed));
            }
            if (size <= maxBody) {
                break;
            }
        }
        return result;
    }

    private static ReducibleOutput reducible(Ending ending, CapturedOutput output, String stream) {
        DispatchResult.AvailableFrom from = ending.output().availableFrom();
        return new ReducibleOutput(
                output,
                stream,
                DispatchLinks.log(ending.id(), stream),
                ending.output().nonce(),
                from == null ? 0 : from.forStream(stream.equals("stdout")));
    }

    /** The result's JSON length, counted as it is written, never held. */
    private long size(DispatchResult result) {
        Counter counter = new Counter();
        try {
            json.write(result, counter);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counter.count;
    }

    private static final class Counter extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
