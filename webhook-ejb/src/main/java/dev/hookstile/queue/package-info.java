/**
 * Hand off: the durable send of each accepted event to the broker before the sender's {@code 202}
 * ({@code EventQueue}, grouped sends; the event queue and the four ordered queues), in the one message format every
 * reader shares ({@code EventMessage}). Called by {@code ingest} and {@code replay}; what it sends is consumed by
 * {@code processing}.
 */
package dev.hookstile.queue;
