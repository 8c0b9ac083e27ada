package dev.hookstile.web.boundary;

import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.source.Rejection;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.util.Locale;

/**
 * Turns the JAX-RS runtime's own errors (no such path, wrong method, unsupported media type) into problem details,
 * so a sender always gets the same kind of error body.
 */
@Provider
public class WebApplicationProblems implements ExceptionMapper<WebApplicationException> {

    @Context
    UriInfo uri;

    @Context
    HttpServletRequest request;

    @Inject
    DeliveryMetrics metrics;

    @Override
    public Response toResponse(WebApplicationException exception) {
        Response original = exception.getResponse();
        int status = original.getStatus();
        Response.StatusType info = original.getStatusInfo();
        String title = info.getReasonPhrase() == null ? "HTTP " + status : info.getReasonPhrase();
        String slug = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        String detail = switch (status) {
            case 404 -> "there is nothing at this path; webhooks are received at POST /webhooks/{source}";
            case 405 -> "this method is not allowed here" + allowed(original);
            default -> exception.getMessage() == null ? title : exception.getMessage();
        };
        String path = uri == null ? null : uri.getPath();
        if (path != null && path.startsWith("webhooks")) {
            countRefusedDelivery(path.startsWith("webhooks/") ? path.substring("webhooks/".length()) : null, status,
                    detail);
        }
        Response.ResponseBuilder problem = Problems.of(status, slug, title, detail, path == null ? null : "/" + path);
        original.getHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type")) {
                values.forEach(value -> problem.header(name, value));
            }
        });
        return problem.build();
    }

    // A sender's mistake the runtime caught before our code ran is still a refused delivery, counted by reason.
    // Under its source for the overview when the path names a configured one (DeliveryMetrics checks).
    private void countRefusedDelivery(String source, int status, String detail) {
        Rejection reason = switch (status) {
            case 405 -> Rejection.METHOD_NOT_ALLOWED;
            case 415 -> Rejection.UNSUPPORTED_MEDIA_TYPE;
            case 413 -> Rejection.PAYLOAD_TOO_LARGE;
            // not a delivery problem of the sender's (404 for a path outside /webhooks/{source} never gets here)
            default -> null;
        };
        if (reason != null) {
            metrics.rejected(source, reason, RefusedRequests.of(request, source, reason, detail, null));
        }
    }

    private static String allowed(Response response) {
        String allow = response.getHeaderString("Allow");
        return allow == null ? "" : "; allowed: " + allow;
    }
}
