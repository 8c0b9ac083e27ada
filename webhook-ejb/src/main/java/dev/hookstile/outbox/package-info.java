/**
 * Forward: what leaves after a try commits. {@code ForwardingSchedule} schedules forwardings and handlers' effects in
 * the try's transaction; the {@code OutboxRelay} timer sends them, at least once, behind a circuit breaker per
 * destination; {@code Forwardings} shows and replays them for operators. Called by {@code processing} and
 * {@code notify}.
 */
package dev.hookstile.outbox;
