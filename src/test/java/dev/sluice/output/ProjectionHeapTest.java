package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Program;

/**
 * Documents built to explode a tree are projected within a heap a tree of one
 * of their elements does not fit in (ADR 0054): one element of millions of
 * small keys, one element holding an array of millions of numbers, and
 * elements nested as deep as the parser allows. Each runs in a JVM of its own
 * with a 128 MiB heap that exits on running out of it, as the worker is
 * deployed; a tree of the first two takes several hundred MiB.
 */
class ProjectionHeapTest {

    private static final long DOCUMENT = 32L << 20;

    @Test
    void manySmallKeysInOneElement() {
        assertThat(project("keys")).isEqualTo("[{\"id\":0,\"last\":\"kept\"},{\"id\":1}]");
    }

    @Test
    void aHugeArrayInOneElement() {
        assertThat(project("array")).isEqualTo("[{\"id\":0,\"last\":\"kept\"},{\"id\":1}]");
    }

    @Test
    void elementsNestedAsDeepAsTheParserAllows() {
        String deep = "{\"d\":".repeat(900) + "7" + "}".repeat(900);
        assertThat(project("deep")).isEqualTo("[" + ("{\"id\":0,\"n\":" + deep + "},").repeat(3) + "{\"id\":1}]");
    }

    private static String project(String shape) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Program.Result result = Program.run(
                "",
                Duration.ofMinutes(2),
                java.toString(),
                "-Xmx128m",
                "-XX:+ExitOnOutOfMemoryError",
                "-cp",
                System.getProperty("java.class.path"),
                Explode.class.getName(),
                shape);
        assertThat(result.exitCode()).as(result.output()).isZero();
        return result.stdout();
    }

    /** Builds one document in memory, projects it over its cap, and prints what was kept. */
    public static final class Explode {

        public static void main(String[] args) throws Exception {
            byte[] document = document(args[0]);
            CapturedOutput asText = new CapturedOutput(
                    Utf8Text.of("head"), document.length, new Overflow(document.length, 4, 0, "n0nce"), null);
            List<String> project =
                    args[0].equals("deep") ? List.of("/id", "/n" + "/d".repeat(900)) : List.of("/id", "/last");
            CapturedOutput out = JsonReducer.reduce(asText, document, 1 << 20, "n0nce", project);
            System.out.print(out.text().toString());
        }

        private static byte[] document(String shape) {
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) DOCUMENT + 4096);
            write(out, "[");
            if (shape.equals("deep")) {
                String deep = "{\"d\":".repeat(900) + "7" + "}".repeat(900);
                for (int i = 0; i < 3; i++) {
                    write(out, "{\"id\":0,\"n\":" + deep + ",\"wide\":[" + "{\"d\":[[[]]]},".repeat(1000) + "1]},");
                }
            } else {
                write(out, "{\"id\":0,");
                int i = 0;
                while (out.size() < DOCUMENT) {
                    write(out, shape.equals("keys") ? "\"k" + i++ + "\":0," : "");
                    if (shape.equals("array")) {
                        write(out, "\"blob\":[0");
                        byte[] more = ",0".repeat(4096).getBytes(StandardCharsets.US_ASCII);
                        while (out.size() < DOCUMENT) {
                            out.write(more, 0, more.length);
                        }
                        write(out, "],");
                    }
                }
                write(out, "\"last\":\"kept\"},");
            }
            write(out, "{\"id\":1,\"other\":2}]");
            return out.toByteArray();
        }

        private static void write(ByteArrayOutputStream out, String text) {
            out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
        }
    }
}
