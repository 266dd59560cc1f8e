package dev.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker, as it runs in production, serves the checked-in OpenAPI
 * document on its management port and not on the API's; Swagger UI is built in
 * (Quarkus leaves it out of production builds unless told otherwise) but off
 * until it is enabled (ADR 0053).
 */
class PackagedApiDocumentIT {

    @Test
    void theProductionWorkerServesTheDocumentOnTheManagementPortAndNoSwaggerUi() throws IOException {
        try (WorkerProcess worker = WorkerProcess.start(WorkerProcess.environment("api-document", Map.of()))) {
            assertThat(worker.probe("/q/openapi").body()).isEqualTo(Files.readString(OpenApiDocumentTest.CHECKED_IN));
            assertThat(worker.status("/q/openapi")).isEqualTo(404);
            assertThat(worker.probeStatus("/q/swagger-ui/")).isEqualTo(404);
            assertThat(worker.status("/q/swagger-ui/")).isEqualTo(404);
        }
    }

    @Test
    void swaggerUiShowsTheDocumentOnceEnabled() throws IOException {
        try (WorkerProcess worker = WorkerProcess.start(
                WorkerProcess.environment("swagger-ui", Map.of("QUARKUS_SWAGGER_UI_ENABLED", "true")))) {
            HttpResponse<String> ui = worker.probe("/q/swagger-ui/");
            assertThat(ui.statusCode()).isEqualTo(200);
            assertThat(ui.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(ui.body()).contains("swagger-ui").contains("/q/openapi");
            assertThat(worker.status("/q/swagger-ui/")).isEqualTo(404);
        }
    }
}
