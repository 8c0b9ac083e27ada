package dev.hookstile.operator.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * The headers that keep the console's page and the operator API's answers where they belong, set before anything
 * else answers (mapped in {@code web.xml}, ahead of the annotated filters, so the operator API's own refusals carry
 * them too):
 * <ul>
 * <li>the console ({@code /console/**}) and its assets ({@code /webjars/**}, {@code /_static/**}): a
 * Content-Security-Policy that lets the page run only its own scripts and styles (no inline script or style, no
 * other origin, no {@code <base>}, forms only to itself), never be framed ({@code frame-ancestors 'none'} and
 * {@code X-Frame-Options: DENY} for older browsers: no clickjacking), no MIME sniffing, no Referer (the URL's hash
 * holds the operator's filters);</li>
 * <li>the operator API ({@code /api/**}): {@code Cache-Control: no-store}, since its answers hold webhook payloads
 * and the anti-forgery token, no MIME sniffing (a payload served as JSON must never be read as HTML), no Referer.</li>
 * </ul>
 * {@code /console} itself redirects to {@code /console/}, so that the page's relative URLs resolve below it.
 */
public class SecurityHeaders extends HttpFilter {

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String path = OperatorAuthentication.pathBelowContext(request);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        if (path.equals("/api") || path.startsWith("/api/")) {
            response.setHeader("Cache-Control", "no-store");
            chain.doFilter(request, response);
            return;
        }
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("X-Frame-Options", "DENY");
        if (path.equals("/console")) {
            String query = request.getQueryString();
            response.setStatus(HttpServletResponse.SC_FOUND);
            response.setHeader("Location", request.getContextPath() + "/console/" + (query == null ? "" : "?" + query));
            return;
        }
        chain.doFilter(request, response);
    }
}
