/**
 * Consume, claim and run: the message-driven beans ({@code boundary}) take each message in a
 * container-managed JTA transaction and hand it to {@code EventProcessor}; {@code EventTry} claims the events under the
 * database's unique key ({@code events}), runs the matching handlers ({@code Handlers}) in the same transaction, and
 * records the outcome; {@code FailureClassifier} and {@code TryRetries} decide between retry and dead. Called by the
 * broker; calls {@code events}, {@code outbox} (forwardings and effects) and the handlers.
 */
package dev.hookstile.processing;
