import java.sql.*;
import java.time.*;
import java.nio.file.*;
public class SqliteProbe {
    static void tryIt(String what, java.util.concurrent.Callable<Object> c) {
        try { System.out.println("OK   " + what + " -> " + c.call()); }
        catch (Exception e) { System.out.println("FAIL " + what + " -> " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("")); }
    }
    public static void main(String[] a) throws Exception {
        Files.deleteIfExists(Path.of("p.db"));
        Connection c = DriverManager.getConnection("jdbc:sqlite:p.db");
        Statement s = c.createStatement();
        System.out.println(c.getMetaData().getDriverVersion() + " / " + c.getMetaData().getDatabaseProductVersion());
        for (String f : new String[]{"/work/main/src/main/resources/db/migration/V1__dispatches.sql", "/work/main/src/main/resources/db/migration/V2__callbacks.sql", "/work/main/src/main/resources/db/migration/V3__workers.sql"}) {
            String sql = Files.readString(Path.of(f)).lines().filter(l -> !l.strip().startsWith("--")).reduce("", (x, y) -> x + "\n" + y);
            for (String st : sql.split(";")) { if (st.isBlank()) continue; String head = st.strip().lines().findFirst().get(); tryIt("project migration: " + head, () -> { s.execute(st); return "created"; }); }
        }
        s.execute("CREATE TABLE t (id TEXT PRIMARY KEY, at TIMESTAMP WITH TIME ZONE, n INTEGER)");
        OffsetDateTime t = OffsetDateTime.of(2026, 11, 22, 10, 0, 0, 123_000_000, ZoneOffset.UTC);
        tryIt("setObject(OffsetDateTime)", () -> { try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES ('a', ?, 1)")) { p.setObject(1, t); p.executeUpdate(); } return "inserted"; });
        tryIt("stored as", () -> { try (ResultSet r = s.executeQuery("SELECT typeof(at), at FROM t")) { r.next(); return r.getString(1) + " " + r.getString(2); } });
        tryIt("getObject(col, OffsetDateTime.class)", () -> { try (ResultSet r = s.executeQuery("SELECT at FROM t")) { r.next(); return r.getObject(1, OffsetDateTime.class); } });
        tryIt("setObject(Timestamp) then getObject(OffsetDateTime)", () -> { try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES ('b', ?, 1)")) { p.setTimestamp(1, Timestamp.from(t.toInstant())); p.executeUpdate(); } try (ResultSet r = s.executeQuery("SELECT typeof(at), at FROM t WHERE id='b'")) { r.next(); return r.getString(1) + " " + r.getString(2); } });
        tryIt("SELECT ... FOR UPDATE SKIP LOCKED", () -> { s.executeQuery("SELECT id FROM t LIMIT 1 FOR UPDATE SKIP LOCKED"); return "ran"; });
        tryIt("UPDATE ... RETURNING", () -> { try (ResultSet r = s.executeQuery("UPDATE t SET n = n + 1 WHERE id IN (SELECT id FROM t ORDER BY id LIMIT 1) RETURNING id, n")) { r.next(); return r.getString(1) + " n=" + r.getInt(2); } });
        tryIt("duplicate key SQLState", () -> { try { s.execute("INSERT INTO t VALUES ('a', NULL, 1)"); return "no error"; } catch (SQLException e) { return "SQLState=" + e.getSQLState() + " errorCode=" + e.getErrorCode() + " " + e.getMessage().lines().findFirst().orElse(""); } });
        c.close();
    }
}
