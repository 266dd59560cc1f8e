package dev.sluice.container.engine;

/**
 * A file the worker looked for in a container's out-directory.
 *
 * @param bytes   its content, when found: never more than the bound asked for
 * @param problem why it was refused or could not be read; {@code null} otherwise
 */
public record OutFile(State state, byte[] bytes, String problem) {

    public enum State {
        /** A regular file within the bound. */
        FOUND,
        /** No such file. */
        ABSENT,
        /** Something that is not read: a link, a FIFO, a directory, a device, or a file over the bound. */
        REFUSED,
        /** The engine did not give it: it failed, or did not answer in time. */
        UNREADABLE
    }

    public static OutFile found(byte[] bytes) {
        return new OutFile(State.FOUND, bytes, null);
    }

    public static OutFile absent() {
        return new OutFile(State.ABSENT, null, null);
    }

    static OutFile refused(String problem) {
        return new OutFile(State.REFUSED, null, problem);
    }

    public static OutFile unreadable(String problem) {
        return new OutFile(State.UNREADABLE, null, problem);
    }
}
