package dev.hookstile.api;

/**
 * The handler SPI: implement it in a CDI bean, annotate the bean with {@link HandlesWebhooks}, and package it with
 * the application.
 *
 * <p>{@link #handle} runs inside the JTA transaction that claimed the event. Database work done through the
 * application's JTA data source therefore commits together with the dedup claim, or not at all: if any handler
 * throws, the claim and every handler's work roll back and the broker redelivers the event. Side effects outside the
 * transaction (an HTTP call, an e-mail) are not rolled back: schedule them through the {@link Outbox}, which sends
 * them after the commit under a stable idempotency key, or make them idempotent yourself, keyed on
 * {@link WebhookEvent#source()} and {@link WebhookEvent#eventId()}.
 *
 * <p>Throw {@link TransientFailure} for a failure that may succeed later (a timeout, a dependency that is down) and
 * {@link PermanentFailure} for one that never will (a payload the handler cannot accept).
 */
public interface WebhookHandler {

    void handle(WebhookEvent event) throws Exception;
}
