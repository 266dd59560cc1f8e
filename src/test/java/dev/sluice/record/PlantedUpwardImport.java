package dev.sluice.record;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.sql.Connection;

import jakarta.ws.rs.core.Response;

import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.PullResponseItem;

import dev.sluice.run.DispatchIntake;

/**
 * A class that breaks every architecture rule on purpose: the record reaching
 * up to the run, an HTTP type below the doors, docker-java outside container
 * and image, a pull outside image, JDBC outside store, a name looked up and an
 * address judged outside outbound. Only {@code ArchitectureTest} reads it, to
 * show that each rule fails when the code breaks it; its namesakes in the
 * container's parts break the parts' rules.
 */
public final class PlantedUpwardImport {

    private PlantedUpwardImport() {}

    static String describe(
            DispatchIntake intake, Response response, Frame frame, PullResponseItem pull, Connection connection) {
        return String.valueOf(intake) + response + frame + pull + connection;
    }

    static boolean loopback(String host) throws UnknownHostException {
        return InetAddress.getByName(host).isLoopbackAddress();
    }

    static InetSocketAddress engine(String host) {
        return new InetSocketAddress(host, 2375);
    }
}
