package dev.sluice.logs;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.container.ContainerLogs;
import dev.sluice.container.LogRetention;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.record.DispatchQueries;
import dev.sluice.record.SecretVault;

/** The log read side: what the runtime still holds of a dispatch's logs, read by byte range. */
class LogsProducer {

    @Produces
    @Singleton
    LogHolding holding(ContainerConfig config, ContainerLogs logs) {
        return new LogHolding(new LogRetention(config), logs);
    }

    @Produces
    @Singleton
    DispatchLogs logs(DispatchQueries queries, SecretVault vault, ContainerLogs logs, LogHolding holding) {
        return new DispatchLogs(queries, vault, logs, holding);
    }
}
