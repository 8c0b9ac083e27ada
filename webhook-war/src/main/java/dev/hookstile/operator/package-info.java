/**
 * The operator API under {@code /api} and the {@code /metrics} scrape: events, replays, forwardings,
 * destinations, sources, the overview and the console's session, each behind the operator gate (token or session,
 * allowed addresses, throttled failures). Called by operators and the console; calls the boundaries of {@code events},
 * {@code replay}, {@code outbox}, {@code source}, {@code ingest}, {@code queue} and {@code health}.
 */
package dev.hookstile.operator;
