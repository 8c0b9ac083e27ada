/**
 * Ingest: the order of checks a delivery goes through before it is acknowledged ({@code Ingest}): the source
 * exists, the body is within its limits ({@link dev.hookstile.ingest.RequestBody}, {@link dev.hookstile.ingest.BodyBudget}),
 * the provider verifies the signature ({@code source}), a duplicate is answered at once ({@code dedup}), and a new event is
 * handed off ({@code HandOff}: grouped, the database's duplicate lookup, then the send to {@code queue}) before the
 * {@code 202}; what each was answered is one {@link dev.hookstile.ingest.Outcome}. Also counts what it answered ({@code DeliveryMetrics},
 * {@code IngestBuckets}) for {@code /metrics} and the console's overview ({@code IngestStatistics}, {@link
 * dev.hookstile.ingest.Series}). Called by {@code receive}.
 */
package dev.hookstile.ingest;
