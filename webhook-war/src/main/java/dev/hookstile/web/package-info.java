/**
 * The web module's platform: the JAX-RS application, problem details ({@code application/problem+json}) for
 * every refusal and failure, and the filters every request passes (ambiguous paths, HTTP/2 upgrades). Used by
 * {@code receive} and {@code operator}.
 */
package dev.hookstile.web;
