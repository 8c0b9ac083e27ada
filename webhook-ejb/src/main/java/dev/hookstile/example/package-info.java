/**
 * The example handler ({@code EventLog}, a line per event), deployed only when
 * {@code HOOKSTILE_HANDLERS_EVENT_LOG_ENABLED} is true.
 */
package dev.hookstile.example;
