package dev.sluice.container.engine;

import java.io.IOException;
import java.io.InputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

import dev.sluice.io.LimitedInputStream;

/**
 * Reads the one file the engine's archive of a path holds, within a bound.
 * The entry's type and stated size are checked from its header before any of
 * its data is read: a link (symbolic or hard), a FIFO, a device or a directory
 * is refused by its type and never followed, and a file over the bound is
 * refused by its size. The stream is read through a limit besides, so neither
 * the headers nor a lying size can make it read more.
 */
public final class TarEntryReader {

    /** Room for the archive's own headers (a tar header, extended headers) beyond the file. */
    static final int HEADER_ROOM = 16 * 1024;

    private TarEntryReader() {}

    public static OutFile read(InputStream archive, String name, int maxBytes) {
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new LimitedInputStream(archive, maxBytes + HEADER_ROOM))) {
            TarArchiveEntry entry = tar.getNextEntry();
            if (entry == null) {
                return OutFile.absent();
            }
            byte type = entry.getLinkFlag();
            if (type != TarConstants.LF_NORMAL && type != TarConstants.LF_OLDNORM) {
                return OutFile.refused(name + " is " + kind(entry) + "; only a regular file is read");
            }
            if (entry.getSize() > maxBytes) {
                return OutFile.refused(name + " is larger than " + maxBytes + " bytes");
            }
            return OutFile.found(tar.readNBytes((int) entry.getSize()));
        } catch (EngineTimeoutException e) {
            return OutFile.unreadable("archive: " + e.getMessage());
        } catch (IOException e) {
            return OutFile.refused(name + " could not be read within " + maxBytes + " bytes: " + e.getMessage());
        }
    }

    private static String kind(TarArchiveEntry entry) {
        if (entry.isSymbolicLink()) {
            return "a symbolic link";
        }
        if (entry.isLink()) {
            return "a hard link";
        }
        if (entry.isFIFO()) {
            return "a FIFO";
        }
        if (entry.isDirectory()) {
            return "a directory";
        }
        if (entry.isCharacterDevice() || entry.isBlockDevice()) {
            return "a device";
        }
        return "not a regular file";
    }
}
