package dev.sluice.dispatch;

/** The API paths of a dispatch, as results and records state them. */
public final class DispatchLinks {

    private DispatchLinks() {}

    public static String self(String id) {
        return "/v1/dispatches/" + id;
    }

    public static String log(String id, String stream) {
        return self(id) + "/logs/" + stream;
    }
}
