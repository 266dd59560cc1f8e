package dev.sluice.events;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/** JSON strings for event data, which is built by hand: a few fixed fields and one text. */
final class Json {

    private Json() {}

    static String string(String text) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + '"';
    }
}
