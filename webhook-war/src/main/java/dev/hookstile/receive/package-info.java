/**
 * Receive, the first step of an event's way: {@code POST /webhooks/{source}} ({@code WebhooksResource}).
 * {@code BodyBuffer} reads a body without holding a request thread while a slow sender trickles it, within the
 * ingest's size, time and memory budget. Called by the container; calls {@link dev.hookstile.ingest.boundary.Ingest},
 * which answers the sender.
 */
package dev.hookstile.receive;
