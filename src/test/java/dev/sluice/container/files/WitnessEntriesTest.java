package dev.sluice.container.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.ArchiveUpload;
import dev.sluice.container.sandbox.ContainerUser;
import dev.sluice.testsupport.TestDocker;

/**
 * What the out-directory's upload carries of the witness (ADR 0070): its
 * program always, since the container's command runs it; the record's
 * directory and the key only for a container created with a key.
 */
class WitnessEntriesTest {

    private static final Witness WITNESS = Witness.of(TestDocker.containerConfig(), "/sluice");

    @Test
    void aContainerWithAKeyGetsTheProgramTheRecordsDirectoryAndTheKey() {
        WitnessKey key = WitnessKey.random();
        List<ArchiveUpload.Entry> entries =
                WITNESS.entries("out", key, Optional.of(new ContainerUser.RunAs(10001, 10001)));
        assertThat(entries)
                .extracting(e -> e.header().getName())
                .containsExactly("witness", "out/" + Witness.RECORD_DIR + "/", "out/" + Witness.RECORD_DIR + "/key");
        assertThat(entries.get(2).data()).isEqualTo(key.bytes());
        assertThat(entries.get(2).header().getMode() & 0777).isEqualTo(0400);
    }

    @Test
    void aContainerCreatedWithoutAKeyStillGetsTheProgramItsCommandRuns() {
        List<ArchiveUpload.Entry> entries = WITNESS.entries("out", null, Optional.empty());
        assertThat(entries).singleElement().satisfies(e -> {
            assertThat(e.header().getName()).isEqualTo("witness");
            assertThat(e.data()).isNotEmpty();
            assertThat(e.header().getMode() & 0777).isEqualTo(0555);
        });
    }
}
