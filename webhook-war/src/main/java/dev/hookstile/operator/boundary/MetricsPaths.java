package dev.hookstile.operator.boundary;

import dev.hookstile.web.boundary.Problems;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Refuses every path under {@code /metrics/}: Payara maps its own metrics servlet there, outside the operator API's
 * allowlist, and {@code /metrics/} would reach it. The one scrape target is {@code /metrics} ({@link MetricsEndpoint}),
 * which includes what that servlet writes.
 */
@WebFilter(urlPatterns = "/metrics/*")
public class MetricsPaths extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.equals("/metrics")) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(404);
        response.setContentType(Problems.MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(Problems.json(404, "not-found", "Not found",
                "the metrics are served at /metrics only", null));
    }
}
