/**
 * Notifications to a chat or an incident tool ({@code HOOKSTILE_NOTIFY_*}): the {@code Notifications}
 * timer groups deaths, breaker changes and processing behind into few messages and schedules them through the
 * {@code outbox}. Calls {@code events} and {@code outbox}.
 */
package dev.hookstile.notify;
