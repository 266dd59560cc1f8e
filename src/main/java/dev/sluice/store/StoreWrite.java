package dev.sluice.store;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Announced for every write to the store, committed or failed: a transaction,
 * named by its operation, or a single statement, named by its verb and table.
 *
 * @param operation a name from the code, never from data: {@code store_result}, {@code update_dispatches}
 * @param took      from taking a connection to the commit, the rollback or the failure
 */
public record StoreWrite(String operation, Duration took, boolean failed) {

    private static final Pattern STATEMENT =
            Pattern.compile("^\\s*(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+(\\w+)", Pattern.CASE_INSENSITIVE);

    /** {@code "store result"} becomes {@code store_result}. */
    static String ofTransaction(String operation) {
        return operation.strip().replaceAll("\\s+", "_").toLowerCase(Locale.ROOT);
    }

    /** {@code UPDATE dispatches SET ...} becomes {@code update_dispatches}. */
    static String ofStatement(String sql) {
        Matcher m = STATEMENT.matcher(sql);
        if (!m.find()) {
            return "other";
        }
        String verb = m.group(1).split("\\s+")[0];
        return (verb + "_" + m.group(2)).toLowerCase(Locale.ROOT);
    }
}
