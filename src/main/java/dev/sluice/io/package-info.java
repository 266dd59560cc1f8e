/**
 * Streams of bytes as the rest of the code reads them: within a bound
 * ({@code LimitedInputStream}), or as a range whose length is known before its
 * bytes ({@code LogRange}). Uses nothing of Sluice's own.
 */
package dev.sluice.io;
