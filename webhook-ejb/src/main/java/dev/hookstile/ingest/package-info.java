/**
 * Ingest, the first step of an event's way, in both jars under one name: its HTTP entry points in the web module
 * ({@code boundary.http}: {@code WebhooksResource}, {@code BodyBuffer}), the rest here. The order of checks a delivery
 * goes through before it is acknowledged ({@code Ingest}): the source exists, the body is within its limits
 * ({@code control.RequestBody}, {@code control.BodyBudget}), the provider verifies the signature ({@code source}), a
 * duplicate is answered at once ({@code dedup}), and a new event is handed off ({@code control.HandOff}: grouped, the
 * database's duplicate lookup, then the send to {@code queue}) before the {@code 202}; what each was answered is one
 * {@link dev.hookstile.ingest.Outcome}. Also counts what it answered ({@code DeliveryMetrics}, {@code IngestBuckets})
 * for {@code /metrics} and the console's overview ({@code IngestStatistics}, {@link dev.hookstile.ingest.Series}).
 * This package holds what ingest publishes: {@code Outcome} and {@code Series}.
 */
package dev.hookstile.ingest;
