package dev.sluice.dispatch;

/**
 * The output caps a dispatch may ask for, as the API validates them: the
 * worker's defaults and maxima, and the floor below which a cap has no room
 * for the truncation marker.
 */
public record OutputCaps(int min, int stdoutDefault, int stdoutMax, int stderrDefault, int stderrMax) {}
