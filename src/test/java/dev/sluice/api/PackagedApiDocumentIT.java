package dev.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker, as it runs in production, serves the checked-in OpenAPI
 * document and Swagger UI (which Quarkus leaves out of production builds
 * unless told otherwise).
 */
class PackagedApiDocumentIT {

    @Test
    void theProductionWorkerServesTheDocumentAndSwaggerUi() throws IOException {
        try (WorkerProcess worker = WorkerProcess.start(
                WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("api-document"), "api-document"))) {
            assertThat(worker.get("/q/openapi").body()).isEqualTo(Files.readString(OpenApiDocumentTest.CHECKED_IN));

            HttpResponse<String> ui = worker.get("/q/swagger-ui/");
            assertThat(ui.statusCode()).isEqualTo(200);
            assertThat(ui.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(ui.body()).contains("swagger-ui").contains("/q/openapi");
        }
    }
}
