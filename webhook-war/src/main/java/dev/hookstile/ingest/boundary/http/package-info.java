/**
 * Ingest's HTTP entry points, the first step of an event's way: {@code POST /webhooks/{source}}
 * ({@code WebhooksResource}), and {@code BodyBuffer}, which reads a body without holding a request thread while a
 * slow sender trickles it, within ingest's size, time and memory budget. In the web module because both packagings
 * need their JAX-RS classes and filters there; a package of its own because no package may have classes in both
 * jars (in the EAR they sit in different class loaders). Called by the container; calls
 * {@link dev.hookstile.ingest.boundary.Ingest}, which answers the sender.
 */
package dev.hookstile.ingest.boundary.http;
