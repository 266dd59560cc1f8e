package dev.sluice.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.output.SecretMasker;
import dev.sluice.record.Dispatch;
import dev.sluice.testsupport.OpenSink;

/** What one subscriber is sent, and when: states once and in order, output within its rate, then the end. */
class SubscriberTest {

    private static final byte[] DIGEST = "{\"id\":\"d-1\",\"status\":\"succeeded\"}".getBytes(StandardCharsets.UTF_8);

    private final Channel channel = new Channel("d-1");

    @Test
    void statesAreSentOnceInOrderAndTheEndCarriesTheDigest() {
        Subscriber s = Subscriber.toDispatch(channel, new OpenSink(), 1024, 100, 0);
        s.state(new StateEvent("d-1", Dispatch.Status.QUEUED, null));
        s.state(new StateEvent("d-1", Dispatch.Status.RUNNING, null));
        s.state(new StateEvent("d-1", Dispatch.Status.RUNNING, null)); // seen twice (a snapshot and the change)
        assertThat(s.take())
                .extracting(EventMessage::id, EventMessage::data)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("1", "{\"id\":\"d-1\",\"status\":\"queued\"}"),
                        org.assertj.core.groups.Tuple.tuple("3", "{\"id\":\"d-1\",\"status\":\"running\"}"));
        s.state(new StateEvent("d-1", Dispatch.Status.SUCCEEDED, DIGEST));
        assertThat(s.take())
                .singleElement()
                .satisfies(m -> assertThat(m.data())
                        .isEqualTo("{\"id\":\"d-1\",\"status\":\"succeeded\",\"digest\":"
                                + new String(DIGEST, StandardCharsets.UTF_8) + "}"));
        assertThat(s.ended()).isTrue();
    }

    @Test
    void aResumingClientIsShownOnlyLaterStatesAndOneThatSawTheEndNothing() {
        Subscriber afterRunning = Subscriber.toDispatch(channel, new OpenSink(), 1024, 100, 3);
        afterRunning.state(new StateEvent("d-1", Dispatch.Status.RUNNING, null));
        assertThat(afterRunning.take()).isEmpty();
        afterRunning.state(new StateEvent("d-1", Dispatch.Status.FAILED, DIGEST));
        assertThat(afterRunning.take()).extracting(EventMessage::id).containsExactly("4");

        Subscriber sawTheEnd = Subscriber.toDispatch(channel, new OpenSink(), 1024, 100, 4);
        sawTheEnd.state(new StateEvent("d-1", Dispatch.Status.FAILED, DIGEST));
        assertThat(sawTheEnd.take()).isEmpty();
        assertThat(sawTheEnd.ended()).isTrue();
    }

    @Test
    void outputIsSentAtTheRateAndWhatASlowSubscriberCannotHoldIsReportedAsAGap() {
        Subscriber s = Subscriber.toDispatch(channel, new OpenSink(), 64, 10, 0);
        channel.running(SecretMasker.NONE);
        channel.join(s);
        byte[] line = "0123456789abcdefghij".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 5; i++) {
            channel.stdout(line, 0, line.length); // 100 bytes into a buffer of 64
        }
        List<EventMessage> first = s.take();
        assertThat(first).extracting(EventMessage::name).containsExactly("stdout");
        assertThat(first.get(0).data()).isEqualTo("{\"offset\":0,\"text\":\"0123456789\"}"); // a second's worth
        assertThat(s.take()).isEmpty(); // the budget is spent until it refills

        s.refill(5);
        assertThat(s.take()).extracting(EventMessage::data).containsExactly("{\"offset\":10,\"text\":\"abcde\"}");
        s.refill(1000); // never more than a second's worth at once
        assertThat(s.take()).extracting(EventMessage::data).containsExactly("{\"offset\":15,\"text\":\"fghij01234\"}");

        // At the end, what is still held and what was dropped are one gap: 35 bytes shown, 65 missed.
        s.refill(1000);
        s.state(new StateEvent("d-1", Dispatch.Status.SUCCEEDED, DIGEST));
        List<EventMessage> end = s.take();
        assertThat(end).extracting(EventMessage::name).containsExactly("stdout", "gap", "state");
        assertThat(end.get(0).data()).isEqualTo("{\"offset\":25,\"text\":\"56789abcde\"}");
        assertThat(end.get(1).data()).isEqualTo("{\"stream\":\"stdout\",\"offset\":35,\"bytes\":65}");
    }

    @Test
    void aSubscriberThatJoinsWhileTheDispatchPrintsMasksKnowingWhatCameBefore() {
        channel.running(new SecretMasker(List.of("hunter2"), 8));
        byte[] earlier = "pw=hunter2\nand 2".getBytes(StandardCharsets.UTF_8);
        channel.stdout(earlier, 0, earlier.length);
        Subscriber s = Subscriber.toDispatch(channel, new OpenSink(), 64, 100, 0);
        channel.join(s);
        byte[] later = "2 ends like it; hunter2 is it".getBytes(StandardCharsets.UTF_8);
        channel.stdout(later, 0, later.length);
        assertThat(s.take())
                .extracting(EventMessage::data)
                .containsExactly("{\"offset\":16,\"text\":\"2 ends like it; ******* is it\"}");
    }

    @Test
    void aStreamOfAllDispatchesHoldsABoundedNumberOfStatesAndCountsTheRest() {
        Subscriber all = Subscriber.toAll(null, null, new OpenSink());
        for (int i = 0; i < Subscriber.MAX_WAITING + 7; i++) {
            all.state(new StateEvent("d-" + i, Dispatch.Status.QUEUED, null));
        }
        List<EventMessage> sent = all.take();
        assertThat(sent).hasSize(Subscriber.MAX_WAITING + 1);
        assertThat(sent.get(0).id()).isNull();
        assertThat(sent.get(sent.size() - 1).name()).isEqualTo("gap");
        assertThat(sent.get(sent.size() - 1).data()).isEqualTo("{\"events\":7}");
    }

    @Test
    void metadataFiltersByKeyAndValue() {
        assertThat(new MetadataFilter("team", null).matches(java.util.Map.of("team", "red")))
                .isTrue();
        assertThat(new MetadataFilter("team", "blue").matches(java.util.Map.of("team", "red")))
                .isFalse();
        assertThat(new MetadataFilter("attempt", "2").matches(java.util.Map.of("attempt", 2)))
                .isTrue();
        assertThat(new MetadataFilter("team", null).matches(null)).isFalse();
    }
}
