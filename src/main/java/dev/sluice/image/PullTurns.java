package dev.sluice.image;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.sluice.concurrent.SharedPool;

/**
 * Whose pull starts next (ADR 0073): at most {@code sluice.images.max-concurrent-pulls}
 * pulls run at once, at most {@code max-concurrent-pulls-per-tenant} of them
 * charged to one tenant, and the tenants take turns, the one whose pull
 * started least recently first, each in the order it asked. A pull is of one
 * image and serves whoever asks for it while it waits or runs: a tenant that
 * asks for an image already waiting puts it in its own turn too, and it
 * starts on the first turn that comes, charged to that turn's tenant alone;
 * one that asks for an image being pulled waits for that pull at no charge.
 * It only decides: the caller starts what it is given, and says when each
 * ended. A pull that finds no turn waits; nothing is refused.
 */
final class PullTurns {

    /** A pull to start now, and the tenant it is charged to. */
    record Start(String key, String tenant) {}

    private final SharedPool slots;
    private final Set<String> waiting = new HashSet<>();
    private final Map<String, String> running = new HashMap<>();
    /** Each tenant's waiting pulls in the order it asked; the tenants in the order they first asked. */
    private final Map<String, Deque<String>> turns = new LinkedHashMap<>();
    /** When each tenant's pull last started, by a count of starts. */
    private final Map<String, Long> lastStarted = new HashMap<>();

    private long starts;

    PullTurns(int maxConcurrent, int perTenant) {
        this.slots = new SharedPool(maxConcurrent, perTenant);
    }

    /** {@code tenant} asks for the pull of {@code key}; returns the pulls that start now. */
    synchronized List<Start> ask(String key, String tenant) {
        if (running.containsKey(key)) {
            return List.of();
        }
        waiting.add(key);
        Deque<String> queue = turns.computeIfAbsent(tenant, t -> new ArrayDeque<>());
        if (!queue.contains(key)) {
            queue.addLast(key);
        }
        return startable();
    }

    /** The pull of {@code key} ended and its slot is free; returns the pulls that start now. */
    synchronized List<Start> ended(String key) {
        String tenant = running.remove(key);
        if (tenant != null) {
            slots.give(tenant, 1);
        }
        return startable();
    }

    /** The tenant the running pull of {@code key} is charged to; null when it is not running. */
    synchronized String chargedTo(String key) {
        return running.get(key);
    }

    /** Pulls waiting for a turn. */
    synchronized int waiting() {
        return waiting.size();
    }

    private List<Start> startable() {
        List<Start> start = new ArrayList<>();
        Start next;
        while (slots.inUse() < slots.total() && (next = nextTurn()) != null) {
            start.add(next);
        }
        return start;
    }

    /**
     * The first pull of the tenant whose pull started least recently (one
     * that never started one first, then the one that asked first), among
     * those with room in their share, started; null when there is none.
     */
    private Start nextTurn() {
        String next = null;
        for (String tenant : List.copyOf(turns.keySet())) {
            Deque<String> queue = turns.get(tenant);
            queue.removeIf(key -> !waiting.contains(key)); // started meanwhile on another tenant's turn
            if (queue.isEmpty()) {
                turns.remove(tenant);
            } else if (slots.room(tenant) > 0
                    && (next == null || lastStarted.getOrDefault(tenant, -1L) < lastStarted.getOrDefault(next, -1L))) {
                next = tenant;
            }
        }
        if (next == null) {
            return null;
        }
        slots.take(next, 1);
        Deque<String> queue = turns.get(next);
        String key = queue.pollFirst();
        if (queue.isEmpty()) {
            turns.remove(next);
        }
        waiting.remove(key);
        running.put(key, next);
        lastStarted.put(next, ++starts);
        return new Start(key, next);
    }
}
