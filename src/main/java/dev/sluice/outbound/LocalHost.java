package dev.sluice.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** This machine's own name and address, as its resolver gives them; empty when it gives none. */
public final class LocalHost {

    private LocalHost() {}

    /** This machine's host name. */
    public static Optional<String> name() {
        try {
            return Optional.of(InetAddress.getLocalHost().getHostName());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** The address this machine's name resolves to, in text. */
    public static Optional<String> address() {
        try {
            return Optional.of(InetAddress.getLocalHost().getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
