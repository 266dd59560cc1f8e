package dev.sluice.testsupport;

import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * The management port of the worker under test (probes, metrics, the API
 * document; ADR 0053). Tests take it on a free port
 * ({@code %test.quarkus.management.test-port=0}), and Quarkus records the one
 * it got under the same name.
 */
public final class Management {

    private Management() {}

    /** A RestAssured request to the management port instead of the API's. */
    public static RequestSpecification given() {
        return RestAssured.given().port(port());
    }

    public static int port() {
        return ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
    }
}
