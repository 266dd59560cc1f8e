/**
 * Streams of bytes as the rest of the code reads them: within a bound. Uses
 * nothing of Sluice's own.
 */
package dev.sluice.io;
