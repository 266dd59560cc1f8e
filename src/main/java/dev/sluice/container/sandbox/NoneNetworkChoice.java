package dev.sluice.container.sandbox;

import java.util.concurrent.atomic.AtomicReference;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineIdentity;
import dev.sluice.container.engine.EngineVersions;
import dev.sluice.container.engine.EngineVersions.NetworkController;
import dev.sluice.container.sandbox.ContainerConfig.NoneNetwork;

/**
 * How containers of {@code network: none} are isolated (ADR 0047): as
 * {@code sluice.container.none-network} says, or, when it says {@code auto},
 * from the engine's identity and version, asked once at start. The engine's
 * own {@code none} network wherever the engine does not have Docker's network
 * controller's deadlock (Podman never has it, ADR 0078); the bare namespace,
 * and with it the worker's hosts file, only where it does.
 * Once made, the choice holds for the worker's life: containers of one worker
 * never differ in it.
 */
public final class NoneNetworkChoice {

    /**
     * A choice and its reason.
     *
     * @param why  the rest of a sentence that begins with the choice, from {@code ": "} or {@code ", "}
     * @param warn true when the choice keeps containers within reach of the deadlock
     */
    public record Choice(boolean bare, String why, boolean warn) {

        /** One line: the choice, and why. */
        public String describe() {
            return "containers of network none get "
                    + (bare ? "a bare network namespace, with the worker's /etc/hosts" : "the engine's none network")
                    + why;
        }
    }

    private static final String SETTING = "sluice.container.none-network";

    private final NoneNetwork setting;
    private final DockerClients clients;
    private final AtomicReference<Choice> made = new AtomicReference<>();

    /** @param clients asked for the engine's version, once, when the setting is {@code auto} */
    public NoneNetworkChoice(NoneNetwork setting, DockerClients clients) {
        this.setting = setting;
        this.clients = clients;
    }

    /**
     * Whether containers of {@code network: none} get a bare namespace. Under
     * {@code auto}, the first call asks the engine its version (within the
     * call deadline) unless {@link #settle} was told it; until an answer
     * comes, each call asks again, and fails as the engine call failed.
     */
    public boolean bare() {
        if (setting != NoneNetwork.AUTO) {
            return setting == NoneNetwork.BARE;
        }
        Choice choice = made.get();
        return choice != null ? choice.bare() : settle(engine()).bare();
    }

    /**
     * The choice in effect, made for {@code engine} if none was made yet:
     * an engine restarted into another version meanwhile does not change it.
     */
    public Choice settle(EngineIdentity engine) {
        if (setting != NoneNetwork.AUTO) {
            return choose(setting, engine);
        }
        made.compareAndSet(null, choose(NoneNetwork.AUTO, engine));
        return made.get();
    }

    private EngineIdentity engine() {
        return clients.identity();
    }

    /**
     * What {@code setting} makes of {@code engine}: Podman's compatible API,
     * under {@code auto}, gets its own none network (it has none of Docker's
     * network controller, ADR 0078); Docker's engine is judged by its version.
     */
    static Choice choose(NoneNetwork setting, EngineIdentity engine) {
        if (setting == NoneNetwork.AUTO && engine.podman()) {
            return new Choice(
                    false,
                    ": the engine is Podman, which has none of Docker's network controller; " + SETTING
                            + "=auto (ADR 0078)",
                    false);
        }
        return choose(setting, engine.version());
    }

    /** What {@code setting} makes of an engine of {@code version}. */
    public static Choice choose(NoneNetwork setting, String version) {
        NetworkController controller = EngineVersions.networkController(version);
        return switch (setting) {
            case BARE -> new Choice(true, ", as " + SETTING + "=bare says (ADR 0047)", false);
            case DOCKER ->
                controller == NetworkController.DEADLOCKS
                        ? new Choice(
                                false,
                                ", as " + SETTING + "=docker says, though this engine can deadlock its network"
                                        + " controller when containers exit together (moby/moby#46661, fixed in"
                                        + " 20.10.27); auto or bare keeps them out of it (ADR 0047)",
                                true)
                        : new Choice(false, ", as " + SETTING + "=docker says (ADR 0047)", false);
            case AUTO ->
                switch (controller) {
                    case DEADLOCKS ->
                        new Choice(
                                true,
                                ": the engine is older than 20.10.27, whose network controller deadlocks when"
                                        + " containers of its none network exit together (moby/moby#46661); "
                                        + SETTING + "=auto (ADR 0047)",
                                false);
                    case FIXED ->
                        new Choice(
                                false,
                                ": the engine is 20.10.27 or later, without that network controller's deadlock; "
                                        + SETTING + "=auto (ADR 0047)",
                                false);
                    case UNKNOWN ->
                        new Choice(
                                false,
                                ": the engine's version \"" + version + "\" is of no form the worker judges; " + SETTING
                                        + "=auto (ADR 0047)",
                                false);
                };
        };
    }
}
