package dev.hookstile.web.boundary;

import jakarta.servlet.http.HttpServletRequest;

/**
 * An error the JAX-RS runtime answered before any resource ran (no such path, a wrong method or media type), as a
 * CDI event for the feature whose path it was: ingest counts one on {@code /webhooks} as a refused delivery.
 *
 * @param path    the request's path below the application, without a leading slash; {@code null} if unknown
 * @param status  the answer's status
 * @param detail  the problem's detail, as answered
 * @param request the request, for what is kept of a refused one
 */
public record RuntimeError(String path, int status, String detail, HttpServletRequest request) {
}
