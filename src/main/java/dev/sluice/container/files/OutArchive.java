package dev.sluice.container.files;

import java.io.IOException;
import java.io.InputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

import dev.sluice.container.engine.EngineTimeoutException;
import dev.sluice.io.LimitedInputStream;

/**
 * Walks the engine's archive of a directory of the out-directory (ADR 0029),
 * entry by entry, within a bound on everything it reads. Only regular files
 * with a safe relative name are offered to the visitor, with their data as a
 * stream it may read or leave; links (symbolic or hard), FIFOs, devices and
 * anything else that is not a regular file, and names that are absolute, hold
 * {@code ..} or leave the directory, are refused by their header and never
 * read. Directories are walked through, not offered. Data the visitor leaves
 * is skipped, unless skipping it would take the read past its bound: then the
 * walk ends there, before reading it.
 */
public final class OutArchive {

    /** Why an entry was refused by its header. */
    public enum Refusal {
        /** Absolute, with an empty, {@code .} or {@code ..} segment, a control character, or outside the directory. */
        UNSAFE_NAME,
        /** A symbolic or hard link. */
        LINK,
        /** A FIFO, a device, or any other type that is not a regular file or a directory. */
        SPECIAL
    }

    /** What the walk gives the visitor. */
    public interface Visitor {

        /**
         * A regular file, {@code name} relative to the directory walked ({@code a/b.txt}).
         * Read as much of {@code data} as wanted; the rest is skipped. {@code data}
         * is {@code null} when its data would take the read past its bound: the
         * walk ends after it, without reading it.
         */
        void file(String name, long size, InputStream data) throws IOException;

        /** An entry refused by its header; {@code name} as the archive gives it, relative when it can be. */
        void refused(String name, Refusal refusal);
    }

    /**
     * How the walk ended.
     *
     * @param complete every entry of the archive was seen
     * @param problem  why it is not complete, for people; {@code null} when it is
     */
    public record End(boolean complete, String problem) {

        static final End COMPLETE = new End(true, null);

        static End cut(String problem) {
            return new End(false, problem);
        }
    }

    private OutArchive() {}

    /**
     * Walks {@code archive}, the engine's tar of the directory {@code dir}
     * (its entries named {@code dir/...}), reading at most {@code limit}
     * bytes of it, headers included.
     */
    public static End walk(InputStream archive, String dir, long limit, Visitor visitor) {
        LimitedInputStream bounded = new LimitedInputStream(archive, limit);
        String prefix = dir + "/";
        try (TarArchiveInputStream tar = new TarArchiveInputStream(bounded)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                String raw = entry.getName();
                String name = raw.startsWith(prefix) ? raw.substring(prefix.length()) : raw;
                if (stripSlash(raw).equals(dir)) {
                    name = ".";
                }
                if (entry.isDirectory()) {
                    if (!name.equals(".") && !(raw.startsWith(prefix) && safe(stripSlash(name)))) {
                        visitor.refused(name, Refusal.UNSAFE_NAME);
                    }
                    continue; // walked through: its files come as entries of their own
                }
                Refusal refusal = refusal(entry, raw, prefix, name);
                if (refusal != null) {
                    visitor.refused(name, refusal);
                } else if (entry.getSize() > bounded.left()) {
                    visitor.file(name, entry.getSize(), null);
                    return End.cut("the archive was read up to its bound of " + limit + " bytes: " + name + " ("
                            + entry.getSize() + " bytes) and what follows it were not read");
                } else {
                    visitor.file(name, entry.getSize(), tar);
                }
            }
            return End.COMPLETE;
        } catch (EngineTimeoutException e) {
            return End.cut("archive: " + e.getMessage());
        } catch (IOException e) {
            return End.cut("the archive could not be read within " + limit + " bytes: " + e.getMessage());
        }
    }

    private static Refusal refusal(TarArchiveEntry entry, String raw, String prefix, String name) {
        byte type = entry.getLinkFlag();
        if (entry.isSymbolicLink() || entry.isLink()) {
            return Refusal.LINK;
        }
        if (type != TarConstants.LF_NORMAL && type != TarConstants.LF_OLDNORM) {
            return Refusal.SPECIAL;
        }
        if (!raw.startsWith(prefix) || !safe(name)) {
            return Refusal.UNSAFE_NAME;
        }
        return null;
    }

    private static String stripSlash(String name) {
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    /** Relative, every segment a real name, no control characters. */
    static boolean safe(String name) {
        if (name.isEmpty() || name.startsWith("/")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return false;
            }
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
