package dev.hookstile.web.boundary;

import dev.hookstile.metrics.boundary.Counter;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.web.control.RequestPaths;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Refuses, with {@code 400}, every request whose path holds a dot-segment or a {@code ;} ({@link RequestPaths}),
 * before any other filter or resource sees it: the container and JAX-RS would read such a path differently, and a
 * guard on one reading (the operator API's on {@code /api/*}) could be walked around by the other. Counted as
 * {@code hookstile_paths_refused_total}.
 *
 * <p>Mapped first, on {@code /*}, in {@code web.xml} (annotations give filters no order). For the URLs Hookstile
 * serves it is a scan of a few characters, no allocation.
 */
public class AmbiguousPathFilter extends HttpFilter {

    private static final String DETAIL = "the path holds a dot-segment ('.' or '..', also percent-encoded) or a ';': "
            + "Hookstile refuses such paths; send the path without them";
    private static final String BODY = Problems.json(400, "ambiguous-path", "Bad request", DETAIL, null);
    private static final byte[] BODY_BYTES = BODY.getBytes(StandardCharsets.UTF_8);

    @Inject
    Metrics metrics;

    private Counter refused;

    @Override
    public void init() {
        refused = metrics.counter("hookstile_paths_refused_total",
                "Requests refused for a dot-segment or ';' in their path").labels();
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        // The container takes ";jsessionid=..." out of the path before the application sees it, so the path alone
        // does not show it; Hookstile has no sessions, and such a path has a ';' all the same.
        if (!RequestPaths.ambiguous(request.getRequestURI()) && !request.isRequestedSessionIdFromURL()) {
            chain.doFilter(request, response);
            return;
        }
        refused.inc();
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType(Problems.MEDIA_TYPE);
        response.setContentLength(BODY_BYTES.length);
        response.getOutputStream().write(BODY_BYTES);
    }
}
