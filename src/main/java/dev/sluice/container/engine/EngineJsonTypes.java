package dev.sluice.container.engine;

import com.github.dockerjava.api.command.CreateContainerResponse;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Version;
import com.github.dockerjava.api.model.WaitResponse;
import com.github.dockerjava.core.command.CreateContainerCmdImpl;
import com.github.dockerjava.core.command.KillContainerCmdImpl;
import com.github.dockerjava.core.command.StartContainerCmdImpl;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The docker-java types Jackson writes to the engine and reads from it for the
 * calls the worker makes (create, start, kill, inspect, list, wait, an image's
 * inspect, and the engine's version). A native executable keeps only the
 * reflection registered when it is built, and docker-java is no Quarkus
 * extension: unregistered, a native worker's first engine call would fail.
 * Their field types come with them, which needs docker-java in Quarkus' index
 * (application.properties). The JVM image needs none of this; no native
 * executable can be built where this was written (ADR 0019).
 */
@RegisterForReflection(
        targets = {
            CreateContainerCmdImpl.class,
            CreateContainerResponse.class,
            StartContainerCmdImpl.class,
            KillContainerCmdImpl.class,
            InspectContainerResponse.class,
            InspectImageResponse.class,
            Container.class,
            WaitResponse.class,
            Version.class
        },
        registerFullHierarchy = true)
final class EngineJsonTypes {

    private EngineJsonTypes() {}
}
