/**
 * Sources and their providers: which senders are configured ({@code boundary.Sources}, read once at start,
 * with each source's secrets, limits, order key, forwarding and back office), and how each provider verifies a
 * delivery ({@link dev.hookstile.source.Provider}; one class per sender in {@code control}, found through
 * {@code boundary.Providers}). A verified delivery says which events it carries ({@link
 * dev.hookstile.source.VerifiedDelivery}); a refused one why ({@link dev.hookstile.source.Rejection}). Called by
 * {@code ingest} to verify, and by every feature that reads a source's settings.
 */
package dev.hookstile.source;
