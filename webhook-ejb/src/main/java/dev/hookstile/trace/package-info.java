/**
 * Trace: W3C Trace Context along an event's way. A delivery's {@code traceparent} is continued (or a trace started),
 * carried in the queue's message to every try, to the handlers ({@code WebhookEvent.traceParent()}), to the
 * forwardings' requests and to back-office messages; with an OTLP endpoint configured, spans of the receive, the
 * hand-off, each try and each forwarding are exported through the container's OpenTelemetry SDK
 * ({@code boundary.Tracing}). Called by {@code ingest}, {@code processing} and {@code outbox}.
 */
package dev.hookstile.trace;
