package dev.sluice.output;

/**
 * A rough count of the tokens a text takes in a language model's context, so a
 * parent agent can budget before it reads a result (ADR 0031): the UTF-8 bytes
 * divided by 3.5, rounded up. It is an estimate, not any model's tokenizer:
 * English prose runs near four bytes a token, code and JSON nearer three.
 */
public final class TokenEstimate {

    private TokenEstimate() {}

    /** ceil(bytes / 3.5), computed as ceil(2 × bytes / 7) in whole numbers. */
    public static long of(long utf8Bytes) {
        return (2 * utf8Bytes + 6) / 7;
    }
}
