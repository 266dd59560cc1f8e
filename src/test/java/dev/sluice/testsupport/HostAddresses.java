package dev.sluice.testsupport;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** Addresses of this machine, for tests of where a worker listens. */
public final class HostAddresses {

    private HostAddresses() {}

    /**
     * An IPv4 address of this machine other than loopback, on an interface
     * that is up: where another machine (or a pod's kubelet) would reach it.
     * Fails, saying so, on a machine that has none.
     */
    public static InetAddress outside() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                        return address;
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("this machine has no IPv4 address beside loopback on an interface that is up:"
                + " the test needs one to show what listens beyond loopback");
    }
}
