/**
 * The processing queues: persistent sends to the event queue and the four ordered queues ({@code EventQueue}), in the
 * one message format every reader shares ({@code EventMessage}). Called by {@code ingest}'s hand-off (a group of
 * accepted events, before the sender's {@code 202}) and by {@code replay}; what it sends is consumed by
 * {@code processing}.
 */
package dev.hookstile.queue;
