/**
 * Admit: ingest's quick answer to a delivery it has seen, before the hand-off. {@code AcceptedEvents} remembers
 * what this instance accepted recently (in memory); {@code DuplicateLookup} asks the database, within a bounded time.
 * Neither is the guarantee: the claim in {@code processing} is. Called by {@code ingest} and {@code queue}.
 */
package dev.hookstile.dedup;
