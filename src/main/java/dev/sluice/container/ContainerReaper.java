package dev.sluice.container;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jboss.logging.Logger;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;

/**
 * Removes this worker's containers once they have been stopped for longer than
 * the retention period, and their logs with them. Found by label, removed
 * idempotently: running again after a crash does no harm.
 */
public class ContainerReaper {

    private static final Logger LOG = Logger.getLogger(ContainerReaper.class);

    /** A container that was removed, and the dispatch it belonged to. */
    public record Reaped(String containerId, String dispatchId) {
    }

    private final DockerClients clients;
    private final ContainerRuntime runtime;
    private final Duration retention;
    private final String workerId;

    public ContainerReaper(DockerClients clients, ContainerRuntime runtime, Duration retention, String workerId) {
        this.clients = clients;
        this.runtime = runtime;
        this.retention = retention;
        this.workerId = workerId;
    }

    public List<Reaped> reap(Instant now) {
        Instant cutoff = now.minus(retention);
        List<Reaped> reaped = new ArrayList<>();
        for (Container c : stopped()) {
            // Created before the cutoff is necessary (not sufficient) for having stopped before it.
            if (c.getCreated() == null || Instant.ofEpochSecond(c.getCreated()).isAfter(cutoff)) {
                continue;
            }
            Optional<Instant> stoppedAt = runtime.inspect(c.getId()).map(ContainerReaper::stoppedAt);
            if (stoppedAt.isPresent() && stoppedAt.get().isBefore(cutoff)) {
                runtime.remove(c.getId());
                reaped.add(new Reaped(c.getId(), c.getLabels() == null ? null : c.getLabels().get(Labels.DISPATCH_ID)));
            }
        }
        if (!reaped.isEmpty()) {
            LOG.infof("removed %d containers stopped for over %s", reaped.size(), retention);
        }
        return reaped;
    }

    private List<Container> stopped() {
        try {
            return clients.control().listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Map.of(Labels.WORKER_ID, workerId))
                    .withStatusFilter(List.of("created", "exited", "dead"))
                    .exec();
        } catch (RuntimeException e) {
            throw ContainerException.from("list containers", e);
        }
    }

    /** When it stopped; a container that never started counts from its creation. */
    private static Instant stoppedAt(InspectContainerResponse c) {
        Instant finished = parse(c.getState().getFinishedAt());
        return finished != null && finished.getEpochSecond() > 0 ? finished : parse(c.getCreated());
    }

    private static Instant parse(String time) {
        try {
            return time == null ? null : OffsetDateTime.parse(time).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
