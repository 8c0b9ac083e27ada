package dev.hookstile.platform;

/**
 * A kind of problem an answer reports (RFC 9457 problem details): its HTTP status, the slug that names its type
 * ({@code urn:hookstile:problem:<slug>}) and its title; the detail is the instance's own.
 */
public record ProblemType(int status, String slug, String title) {
}
