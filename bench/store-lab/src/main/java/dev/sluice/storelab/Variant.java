package dev.sluice.storelab;

import java.util.Locale;

/**
 * One store configuration under test: which database, how the result body is
 * kept, and (SQLite) the synchronous level.
 *
 * <ul>
 *   <li>{@code h2-text}: the store before ADR 0017, {@code result TEXT} bound as a String. In H2 2.x TEXT is
 *       CHARACTER VARYING (DataType: "TEXT" is an alias of VARCHAR), so the whole result is kept
 *       inline in the table's row, in the MVStore B-tree page</li>
 *   <li>{@code h2-clob}: {@code result CLOB}, bound as a String: H2's LOB storage (lobData map)</li>
 *   <li>{@code h2-blob}: {@code result BLOB}, bound as the UTF-8 bytes: H2's LOB storage</li>
 *   <li>{@code h2-files}: a small H2 index; the body in a file (temp, fsync, rename, fsync directory)</li>
 *   <li>{@code sqlite-blob-full} / {@code sqlite-blob-normal}: SQLite in WAL mode, body inline as a BLOB</li>
 *   <li>{@code sqlite-files-full} / {@code sqlite-files-normal}: SQLite index in WAL mode, body in a file</li>
 * </ul>
 *
 * The H2 version is whatever H2 jar run.sh put on the class path.
 */
record Variant(String name, Db db, Body body, String synchronous) {

    enum Db {
        H2,
        SQLITE
    }

    enum Body {
        TEXT,
        CLOB,
        BLOB,
        FILE
    }

    static Variant parse(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return switch (n) {
            case "h2-text" -> new Variant(n, Db.H2, Body.TEXT, null);
            case "h2-clob" -> new Variant(n, Db.H2, Body.CLOB, null);
            case "h2-blob" -> new Variant(n, Db.H2, Body.BLOB, null);
            case "h2-files" -> new Variant(n, Db.H2, Body.FILE, null);
            case "sqlite-blob-full" -> new Variant(n, Db.SQLITE, Body.BLOB, "FULL");
            case "sqlite-blob-normal" -> new Variant(n, Db.SQLITE, Body.BLOB, "NORMAL");
            case "sqlite-files-full" -> new Variant(n, Db.SQLITE, Body.FILE, "FULL");
            case "sqlite-files-normal" -> new Variant(n, Db.SQLITE, Body.FILE, "NORMAL");
            default -> throw new IllegalArgumentException("unknown variant " + name);
        };
    }
}
