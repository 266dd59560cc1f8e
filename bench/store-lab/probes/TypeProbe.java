import java.sql.*;
public class TypeProbe {
    public static void main(String[] a) throws Exception {
        String dir = a[0];
        try (Connection c = DriverManager.getConnection("jdbc:h2:file:" + dir + "/t;WRITE_DELAY=0", "sa", "")) {
            Statement s = c.createStatement();
            s.execute("CREATE TABLE d (id VARCHAR(64) PRIMARY KEY, status VARCHAR(16), result TEXT)");
            s.execute("INSERT INTO d VALUES ('a', 'running', NULL), ('b', 'running', NULL)");
            String big = "x".repeat(2 * 1024 * 1024);
            try (PreparedStatement ps = c.prepareStatement("UPDATE d SET status = ?, result = ? WHERE id = ? AND status = 'running'")) {
                ps.setString(1, "succeeded"); ps.setObject(2, big); ps.setString(3, "a"); ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO d VALUES (?, 'succeeded', ?)")) {
                ps.setString(1, "c"); ps.setObject(2, big); ps.executeUpdate();
            }
            try (ResultSet rs = s.executeQuery("SELECT id, result FROM d WHERE result IS NOT NULL ORDER BY id")) {
                while (rs.next()) System.out.println(rs.getString(1) + ": getObject -> " + rs.getObject(2).getClass().getName());
            }
            try (ResultSet rs = s.executeQuery("SELECT DATA_TYPE, CHARACTER_MAXIMUM_LENGTH FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME='D' AND COLUMN_NAME='RESULT'")) { rs.next(); System.out.println("column type " + rs.getString(1) + " " + rs.getString(2)); }
            try (ResultSet rs = s.executeQuery("SELECT DISK_SPACE_USED('D')")) { rs.next(); System.out.println("table D disk space " + rs.getLong(1)); }
            try (ResultSet rs = s.executeQuery("SELECT id, result FROM d WHERE id='a'")) { rs.next(); System.out.println("getClob -> " + rs.getClob(2).getClass().getName()); }
            System.out.println(c.getMetaData().getDatabaseProductVersion());
        }
    }
}
