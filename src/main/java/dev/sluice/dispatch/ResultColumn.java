package dev.sluice.dispatch;

import java.nio.charset.StandardCharsets;

import dev.sluice.store.Jdbc;

/** How a stored result's JSON goes into the {@code result} column and comes back. */
final class ResultColumn {

    private ResultColumn() {}

    static Object value(byte[] json) {
        return new String(json, StandardCharsets.UTF_8);
    }

    static StoredResult read(Jdbc.Row row, String column) {
        String text = row.string(column);
        return text == null ? null : new StoredResult(text.getBytes(StandardCharsets.UTF_8));
    }
}
