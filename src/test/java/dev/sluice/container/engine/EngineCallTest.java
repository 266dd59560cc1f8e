package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An engine call's operation is one of a few names, whatever ids, images, versions and queries its path holds. */
class EngineCallTest {

    @ParameterizedTest(name = "{0} {1} is {2}")
    @CsvSource({
        "GET, /_ping, ping",
        "HEAD, /v1.41/_ping, ping",
        "POST, /v1.41/containers/create?name=x, create",
        "POST, /containers/3f2a9c/start, start",
        "POST, /v1.44/containers/3f2a9c/wait?condition=not-running, wait",
        "POST, /containers/3f2a9c/kill?signal=SIGTERM, kill",
        "POST, /containers/3f2a9c/attach?stream=1&stdout=1, attach",
        "GET, /containers/3f2a9c/json, inspect",
        "GET, /containers/3f2a9c/logs?follow=0&stdout=1, logs",
        "DELETE, /containers/3f2a9c?force=1&v=1, remove",
        "GET, /containers/json?all=1&filters=%7B%7D, list",
        "GET, /images/registry.example:5000/agents/coder:1.2/json, inspect_image",
        "GET, /v1.41/images/sluice-agent:test/json, inspect_image",
        "POST, /v1.41/images/create?fromImage=registry.example%2Fagents%2Fcoder&tag=1.2, pull",
        "DELETE, /v1.41/images/registry.example:5000/agents/coder:1.2?force=false, remove_image",
        "POST, /containers/3f2a9c/rename?name=y, other",
        "GET, /version, other",
        "GET, /containers/3f2a9c/archive/deep, other"
    })
    void namesTheOperation(String method, String path, String operation) {
        assertThat(EngineCall.operation(method, path)).isEqualTo(operation);
    }
}
