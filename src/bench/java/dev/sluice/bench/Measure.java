package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Statistics and readings of a process from /proc. */
final class Measure {

    /** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
    private static final double TICKS = 100.0;

    private Measure() {}

    static double median(List<Double> values) {
        return percentile(values, 50);
    }

    static double percentile(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    /** User plus system CPU seconds the process has used. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    /** Resident set size, in MiB. */
    static double rssMib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            // gone
        }
        return Double.NaN;
    }

    /** A difference, with its sign. */
    static String signed(double value) {
        return (value < 0 ? "−" : "+") + f(Math.abs(value));
    }

    static String f(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }
}
