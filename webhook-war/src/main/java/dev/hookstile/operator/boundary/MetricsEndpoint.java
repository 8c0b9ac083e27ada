package dev.hookstile.operator.boundary;

import dev.hookstile.web.boundary.MemoryOutput;
import dev.hookstile.metrics.boundary.Metrics;
import dev.hookstile.operator.control.OperatorGate;
import dev.hookstile.web.boundary.Problems;
import jakarta.inject.Inject;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code GET /metrics}: the one scrape target, in Prometheus text. Hookstile's families ({@link Metrics}), then the
 * JVM's, the connection pools' and Fault Tolerance's as Payara writes them (its MicroProfile Metrics servlet,
 * registered into the application at {@code /} under the name {@value #PAYARA_METRICS}, included here: it collects the
 * JVM's values when asked, which a registry read alone does not). Its own mapping ({@code /metrics/*}) is shadowed:
 * this servlet takes {@code /metrics} and {@link MetricsPaths} refuses the rest. Under the operator API's address
 * allowlist and throttle ({@code HOOKSTILE_ADMIN_ALLOWED_ADDRESSES}), not open like the webhooks: a scrape shows what
 * arrives from whom and how much. No token: Prometheus scrapes from an address the operator allows.
 */
@WebServlet(urlPatterns = "/metrics")
public class MetricsEndpoint extends HttpServlet {

    /** The name Payara registers its metrics servlet under, in the application deployed at {@code /}. */
    static final String PAYARA_METRICS = "microprofile-metrics-resource";

    @Inject
    Metrics metrics;

    @Inject
    OperatorGate gate;

    private static final Logger LOG = Logger.getLogger(MetricsEndpoint.class.getName());

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        OperatorGate.Refusal refusal = gate.reach(request.getRemoteAddr(), request.getMethod(),
                request.getRequestURI());
        if (refusal != null) {
            response.setStatus(refusal.status());
            if (refusal.retryAfterSeconds() > 0) {
                response.setHeader("Retry-After", Long.toString(refusal.retryAfterSeconds()));
            }
            response.setContentType(Problems.MEDIA_TYPE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.getWriter().write(Problems.json(refusal.status(), refusal.slug(), refusal.title(),
                    refusal.detail(), request.getRequestURI()));
            return;
        }
        // Written whole before anything is sent: a scrape is a few tens of kilobytes, and a failure halfway must
        // not leave Prometheus a truncated page that parses.
        var text = new StringWriter(32 * 1024);
        metrics.writeTo(text);
        RequestDispatcher payara = getServletContext().getNamedDispatcher(PAYARA_METRICS);
        if (payara != null) {
            var captured = new CapturedText(response);
            try {
                payara.include(new PlainTextRequest(request), captured);
                text.write(captured.text());
            } catch (ServletException | IOException | RuntimeException e) {
                // The JVM's metrics are a bonus: Hookstile's are served without them.
                LOG.log(Level.FINE, e, () -> "Payara's metrics could not be included in the scrape");
            }
        }
        response.setStatus(200);
        response.setContentType(Metrics.CONTENT_TYPE);
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(text.toString());
    }

    /** Asks Payara for Prometheus text (not OpenMetrics, which ends in {@code # EOF}), every scope. */
    private static final class PlainTextRequest extends HttpServletRequestWrapper {

        PlainTextRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getHeader(String name) {
            return "Accept".equalsIgnoreCase(name) ? "text/plain" : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return "Accept".equalsIgnoreCase(name) ? Collections.enumeration(List.of("text/plain"))
                    : super.getHeaders(name);
        }

        @Override
        public String getQueryString() {
            return null;
        }

        @Override
        public String getParameter(String name) {
            return null;
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            return Map.of();
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.emptyEnumeration();
        }

        @Override
        public String[] getParameterValues(String name) {
            return null;
        }
    }

    /** What an included servlet writes, kept instead of sent. */
    private static final class CapturedText extends HttpServletResponseWrapper {

        private final StringWriter text = new StringWriter(16 * 1024);
        private final PrintWriter writer = new PrintWriter(text);
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        CapturedText(HttpServletResponse response) {
            super(response);
        }

        @Override
        public PrintWriter getWriter() {
            return writer;
        }

        @Override
        public ServletOutputStream getOutputStream() {
            return new MemoryOutput(bytes);
        }

        String text() {
            writer.flush();
            String written = text.toString() + bytes.toString(StandardCharsets.UTF_8);
            return written.isEmpty() || written.endsWith("\n") ? written : written + "\n";
        }
    }
}
