/**
 * Hookstile's test kit for handler authors, added in test scope.
 *
 * <p>Unit tests: {@link dev.hookstile.test.WebhookEvents} builds the events a handler receives, with no container; the
 * kit brings the JSON-P and JSON-B implementations (Parsson, Yasson) that {@code WebhookEvent.json()} and
 * {@code payloadAs()} need outside one.
 *
 * <p>Deliveries: {@link dev.hookstile.test.Deliveries} builds requests signed exactly as each provider signs them
 * ({@link dev.hookstile.test.SignedDelivery}), for the JDK's HTTP client or REST Assured.
 *
 * <p>Integration tests with Arquillian: {@link dev.hookstile.test.TestRuntime} prepares Payara Micro, the broker's
 * resource adapter and a database schema once per run; {@link dev.hookstile.test.HookstileDeployment} is Hookstile's
 * WAR with the project's handlers and the sources the test declares; {@link dev.hookstile.test.Hookstile} sends
 * deliveries to it and waits for each event's {@link dev.hookstile.test.EventOutcome} through the operator API.
 */
package dev.hookstile.test;
