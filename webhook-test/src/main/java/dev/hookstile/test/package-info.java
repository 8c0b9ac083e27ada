/**
 * Hookstile's test kit for handler authors, added in test scope: {@link dev.hookstile.test.Deliveries} builds
 * deliveries signed exactly as each provider signs them, to send to a running Hookstile ({@link
 * dev.hookstile.test.SignedDelivery#request}); {@link dev.hookstile.test.WebhookEvents} builds the events a handler
 * receives, for plain unit tests with no container. It depends on the handler API only, and brings the JSON-P and
 * JSON-B implementations (Parsson, Yasson) that {@code WebhookEvent.json()} and {@code payloadAs()} need outside a
 * container.
 */
package dev.hookstile.test;
