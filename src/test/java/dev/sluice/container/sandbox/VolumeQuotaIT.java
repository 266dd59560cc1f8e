package dev.sluice.container.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.github.dockerjava.api.exception.DockerException;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.testsupport.TestDocker;

/**
 * Whether the out-directory's volume gets a size is what the engine says of a
 * volume of that size, asked here directly (ADR 0055): on an engine without
 * project quotas (this one: overlay2 on ext4) none, with the engine's refusal
 * behind it; and the worker's question leaves no volume behind.
 */
class VolumeQuotaIT {

    private static DockerClients clients;

    @BeforeAll
    static void connect() {
        clients = TestDocker.clients();
    }

    @AfterAll
    static void close() throws Exception {
        clients.close();
    }

    @Test
    void theVolumeIsBoundedExactlyWhereTheEngineTakesASize() {
        boolean engineTakesIt;
        String name = "sluice-it-quota-" + UUID.randomUUID();
        try {
            clients.control()
                    .createVolumeCmd()
                    .withName(name)
                    .withDriver("local")
                    .withDriverOpts(Map.of("size", "1048576"))
                    .exec();
            clients.control().removeVolumeCmd(name).exec();
            engineTakesIt = true;
        } catch (DockerException e) {
            assertThat(e.getMessage()).contains("quota");
            engineTakesIt = false;
        }

        VolumeQuota quota = new VolumeQuota(clients, 1 << 20);
        var driver = quota.driver();

        assertThat(driver.isPresent()).isEqualTo(engineTakesIt);
        driver.ifPresent(d -> assertThat(d.getOptions()).containsEntry("size", "1048576"));
        assertThat(quota.driver()).isEqualTo(driver); // settled once
        assertThat(clients.control().listVolumesCmd().exec().getVolumes())
                .noneMatch(v -> v.getName().startsWith("sluice-quota-probe-"));
        assertThat(new VolumeQuota(clients, 0).driver()).isEmpty();
    }
}
