package dev.hookstile.web.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Keeps the whole answer to a request that offers a protocol upgrade in memory until it is complete. The JDK's
 * HttpClient offers h2c on every new plain connection; with h2c off (docs/security.md), Grizzly answers such a
 * request in HTTP/1.1, but an answer longer than its 8 KiB output buffer went out without its {@code Content-Type}
 * and without {@code Content-Length} or chunking, ended only by closing the connection (measured: {@code /metrics},
 * a page of {@code /api/events}). Held until complete, the answer carries its headers and length like any other.
 * Answers are bounded (pages, the metrics text), so the buffer holds at most one of them.
 */
public class UpgradeOfferAnswers extends HttpFilter {

    /** Larger than any answer Hookstile writes. */
    static final int BUFFER_BYTES = 4 * 1024 * 1024;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getHeader("Upgrade") != null) {
            response.setBufferSize(BUFFER_BYTES);
        }
        chain.doFilter(request, response);
    }
}
