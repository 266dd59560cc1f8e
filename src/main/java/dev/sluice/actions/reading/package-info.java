/**
 * How a request body is read (ADR 0076): bounded while it is parsed, before the objects it
 * describes are built, and within the worker's and the tenant's decoding budget. It knows JSON
 * and the shapes of the requests, nothing of HTTP; the doors hand it a body and a grant of the
 * budget, and {@code actions.Refusals} turns what it refuses into problem details.
 */
package dev.sluice.actions.reading;
