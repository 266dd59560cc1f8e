package dev.sluice.testsupport;

import java.util.List;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** Worker configurations that tests need beyond the defaults. */
public final class Profiles {

    private Profiles() {}

    /** API tokens required on /v1. */
    public static final class Tokens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.api.tokens", "token-alpha-0123456789, token-beta-0123456789");
        }
    }

    /** Two tenants and an operator (ADR 0052). */
    public static final class Tenants implements QuarkusTestProfile {
        public static final String ALPHA = "alpha-token-0123456789";
        public static final String BETA = "beta-token-0123456789";
        public static final String OPERATOR = "operator-token-0123456789";

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.api.tokens", "alpha:" + ALPHA + ",beta:" + BETA, "sluice.api.operator-tokens", OPERATOR);
        }
    }

    /** Only images under one registry path, and the test agent, may run. */
    public static final class AllowList implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.images.allowed", "registry.example/agents/*,sluice-agent:*");
        }
    }

    /** Results and callback bodies kept within 16 KiB (ADR 0033). */
    public static final class SmallCallbackBudget implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.callback.max-body", "16K");
        }
    }

    /** Summaries from the shared chat-completions test peer, with a short timeout (ADR 0034). */
    public static final class Summaries implements QuarkusTestProfile {
        public static final String API_KEY = "sk-test-0123456789abcdef";

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.summarizer.url", ChatCompletionsServer.shared().url(),
                    "sluice.summarizer.allowed-hosts", "127.0.0.1",
                    "sluice.summarizer.model", "test-model",
                    "sluice.summarizer.api-key", API_KEY,
                    "sluice.summarizer.timeout", "3s",
                    "sluice.summarizer.max-input-bytes", "4K");
        }
    }

    /** Workspaces of at most 4 MiB and 3000 entries; archives from the test's HTTPS server on loopback. */
    public static final class Workspace implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.workspace.max-bytes", "4M",
                    "sluice.workspace.max-entries", "3000",
                    "sluice.workspace.allowed-hosts", "127.0.0.1",
                    "sluice.workspace.fetch-timeout", "10s",
                    "sluice.data-dir", "./target/workspace-it",
                    "sluice.workspace.trust-certificates",
                            ArchiveServer.shared().certificate().toString());
        }
    }

    /** One container at a time, two waiting. */
    public static final class SmallCapacity implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.dispatch.max-running",
                    "1",
                    "sluice.dispatch.max-queued",
                    "2",
                    "sluice.dispatch.retry-after",
                    "7s");
        }
    }

    /** Room in the worker for two running and two queued, of which one running and one queued per tenant. */
    public static final class TenantCapacity implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.dispatch.max-running",
                    "2",
                    "sluice.dispatch.max-queued",
                    "2",
                    "sluice.tenants.default.max-running",
                    "1",
                    "sluice.tenants.default.max-queued",
                    "1",
                    "sluice.dispatch.retry-after",
                    "7s");
        }
    }

    /** The store on PostgreSQL, set through the standard Quarkus settings only. */
    public static final class Postgres implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.datasource.jdbc.url",
                    System.getenv()
                            .getOrDefault(
                                    "SLUICE_TEST_POSTGRES_APP_URL", "jdbc:postgresql://localhost:5432/sluice_app_test"),
                    "quarkus.datasource.username",
                    "sluice",
                    "quarkus.datasource.password",
                    "sluice");
        }
    }

    /** Log rotation at 1 MiB x 2 files, so a few MB of output lose their beginning (ADR 0032). */
    public static final class SmallLogs implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.container.log-max-size", "1M", "sluice.container.log-max-files", "2");
        }
    }

    /** An engine that does not exist. */
    public static final class EngineDown implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.docker.host", "unix:///nonexistent/docker.sock", "sluice.dispatch.retry-after", "3s");
        }
    }

    /** An engine of our own (ScriptedEngineResource) whose calls can be made to hang, with a one-second call timeout. */
    public static final class ScriptedEngine implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.docker.call-timeout", "1s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(ScriptedEngineResource.class));
        }
    }

    /** Artifacts bounded small (1 MiB a file, 4 MiB in all, 50 files), so hostile agents meet the bounds quickly. */
    public static final class SmallArtifacts implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.artifacts.max-file-size", "1M",
                    "sluice.artifacts.max-total-size", "4M",
                    "sluice.artifacts.max-count", "50");
        }
    }

    /**
     * Artifacts within 6 MiB on the worker's disk, at most 4 MiB a dispatch, in
     * a directory of this run alone, so no other test's artifacts count.
     */
    public static final class ArtifactQuota implements QuarkusTestProfile {
        public static final String DIR = "target/test-artifacts-quota-" + java.util.UUID.randomUUID();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "sluice.artifacts.dir", DIR,
                    "sluice.artifacts.max-file-size", "1M",
                    "sluice.artifacts.max-total-size", "4M",
                    "sluice.artifacts.max-disk", "6M");
        }
    }

    /** Artifacts kept for two seconds, swept every second. */
    public static final class ShortArtifactRetention implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.artifacts.retention", "2s", "sluice.dispatch.reaper-interval", "1s");
        }
    }
}
