package dev.sluice.storelab;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;

/**
 * After a stall, reads the open H2 store's chunk bookkeeping by reflection
 * (fields only, no locks taken): the chunks not yet allocated in the file, the
 * chunk being written, and the removed-page records waiting to be accounted,
 * by chunk. This is what saveChunkMetadataChanges waits on.
 */
final class H2Probe {

    private H2Probe() {}

    static String describe() {
        StringBuilder sb = new StringBuilder("H2 store state (by reflection):\n");
        try {
            Class<?> engine = Class.forName("org.h2.engine.Engine");
            Map<?, ?> databases = (Map<?, ?>) field(engine, "DATABASES").get(null);
            Object[] holders;
            synchronized (databases) {
                holders = databases.values().toArray();
            }
            for (Object holder : holders) {
                Object db = field(holder.getClass(), "database").get(holder);
                if (db == null) {
                    continue;
                }
                Object store = call(db, "getStore");
                Object mv = call(store, "getMvStore");
                Object fs = call(mv, "getFileStore");
                sb.append("  MVStore.currentVersion = ").append(field(mv.getClass(), "currentVersion").get(mv))
                        .append('\n');
                Object tx = field(mv.getClass(), "currentTxCounter").get(mv);
                sb.append("  MVStore.currentTxCounter = version ").append(field(tx.getClass(), "version").get(tx))
                        .append(", counter ").append(field(tx.getClass(), "counter").get(tx))
                        .append(" (negative: retired while still current; registerVersionUsage spins on it)\n");
                Object versions = field(mv.getClass(), "versions").get(mv);
                Object[] vs = (Object[]) versions.getClass().getMethod("toArray").invoke(versions);
                sb.append("  MVStore.versions (retired, still in use): ").append(vs.length);
                for (int i = Math.max(0, vs.length - 5); i < vs.length; i++) {
                    sb.append(" [v").append(field(vs[i].getClass(), "version").get(vs[i])).append(" n=")
                            .append(field(vs[i].getClass(), "counter").get(vs[i])).append(']');
                }
                sb.append('\n');
                Class<?> fsClass = Class.forName("org.h2.mvstore.FileStore");
                sb.append("  FileStore.lastChunkId = ").append(field(fsClass, "lastChunkId").get(fs)).append('\n');
                Object lastChunk = field(fsClass, "lastChunk").get(fs);
                sb.append("  FileStore.lastChunk (last written) = ").append(chunk(lastChunk)).append('\n');
                Map<?, ?> chunks = (Map<?, ?>) field(fsClass, "chunks").get(fs);
                sb.append("  chunks: ").append(chunks.size()).append('\n');
                for (Object c : chunks.values()) {
                    if (block(c) == 0) {
                        sb.append("  NOT ALLOCATED: ").append(chunk(c)).append('\n');
                    }
                }
                Object queue = field(fsClass, "removedPages").get(fs);
                Object[] rpis = (Object[]) queue.getClass().getMethod("toArray").invoke(queue);
                Map<Integer, long[]> byChunk = new TreeMap<>();
                for (Object rpi : rpis) {
                    int chunkId = (Integer) call(rpi, "getPageChunkId");
                    long version = (Long) field(rpi.getClass(), "version").get(rpi);
                    long[] agg = byChunk.computeIfAbsent(chunkId, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
                    agg[0]++;
                    agg[1] = Math.min(agg[1], version);
                    agg[2] = Math.max(agg[2], version);
                }
                sb.append("  removed-page records pending: ").append(rpis.length).append('\n');
                for (Map.Entry<Integer, long[]> e : byChunk.entrySet()) {
                    Object c = chunks.get(e.getKey());
                    sb.append("    chunk ").append(e.getKey()).append(": ").append(e.getValue()[0])
                            .append(" records, versions ").append(e.getValue()[1]).append("..")
                            .append(e.getValue()[2]).append(c == null ? " (chunk gone)" : " -> " + chunk(c))
                            .append('\n');
                }
            }
        } catch (Throwable t) {
            sb.append("  probe failed: ").append(t).append('\n');
        }
        return sb.toString();
    }

    private static String chunk(Object c) throws Exception {
        if (c == null) {
            return "null";
        }
        Class<?> k = Class.forName("org.h2.mvstore.Chunk");
        return "chunk id=" + field(k, "id").get(c) + " version=" + field(k, "version").get(c) + " block="
                + field(k, "block").get(c) + " len=" + field(k, "len").get(c) + " pages="
                + field(k, "pageCount").get(c) + " buffer=" + (field(k, "buffer").get(c) != null);
    }

    private static long block(Object c) throws Exception {
        return ((Number) field(Class.forName("org.h2.mvstore.Chunk"), "block").get(c)).longValue();
    }

    private static Field field(Class<?> k, String name) throws NoSuchFieldException {
        for (Class<?> c = k; c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look further up
            }
        }
        throw new NoSuchFieldException(k.getName() + "." + name);
    }

    private static Object call(Object o, String name) throws Exception {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(name);
                m.setAccessible(true);
                return m.invoke(o);
            } catch (NoSuchMethodException e) {
                // look further up
            }
        }
        throw new NoSuchMethodException(o.getClass().getName() + "." + name);
    }
}
