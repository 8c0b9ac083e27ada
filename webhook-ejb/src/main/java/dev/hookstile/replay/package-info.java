/**
 * Replay: a finished event queued again as a new attempt ({@code Replays}), a filter's worth in the
 * background ({@code ReplayJobs}), and after a start the replays a crash may have cut off ({@code LostReplays}). Called
 * by the operator API; calls {@code events} and {@code queue}.
 */
package dev.hookstile.replay;
