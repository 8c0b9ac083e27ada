/**
 * Record: the event store. {@code EventRecorder} claims events and writes their recorded state, bodies and
 * history in the try's transaction; {@code BodyFingerprints} deduplicates on a body's hash; {@code RecordedEvents},
 * {@code EventCounts} and {@code DeadGroups} answer the operator API; {@code RetentionSweep} deletes what is old;
 * {@code RecordedKeys} answers ingest's duplicate lookup and {@code RecordedDeaths} the notifier. Its JDBC statements
 * are in {@code control}, one {@code *Statements} holder per table. Called by {@code processing}, {@code dedup},
 * {@code notify}, {@code replay} and the operator API.
 */
package dev.hookstile.events;
