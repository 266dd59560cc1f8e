package dev.sluice.record;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The API paths of a dispatch, as results and records state them: by the id
 * its tenant knows, given its key (ADR 0052).
 */
public final class DispatchLinks {

    private DispatchLinks() {}

    public static String self(String key) {
        return "/v1/dispatches/" + DispatchKey.idOf(key);
    }

    public static String log(String id, String stream) {
        return self(id) + "/logs/" + stream;
    }

    /** An artifact's address: its name's segments percent-encoded, its slashes kept. */
    public static String artifact(String id, String name) {
        StringBuilder path = new StringBuilder(self(id)).append("/artifacts");
        for (String segment : name.split("/", -1)) {
            path.append('/')
                    .append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return path.toString();
    }
}
