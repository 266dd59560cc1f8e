package dev.sluice.workspace;

/** The bounds a workspace is checked against, from {@link WorkspaceConfig}. */
record WorkspaceLimits(long maxBytes, int maxEntries, int maxPathLength) {

    static WorkspaceLimits of(WorkspaceConfig config) {
        return new WorkspaceLimits(config.maxBytes().asLongValue(), config.maxEntries(), config.maxPathLength());
    }

    /**
     * The most a tar of such a workspace may be, decompressed, headers
     * included: its files, and per entry a header, an extended header for a
     * long name and a block of padding. Reading an archive stops here, so a
     * gzip bomb stops at the bound and not after.
     */
    long maxArchive() {
        return maxBytes + (long) maxEntries * (3 * 512 + 2L * maxPathLength) + 64 * 1024;
    }
}
