package dev.hookstile.web.boundary;

import jakarta.enterprise.event.Event;
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

    /** Observed by ingest, which counts one on a webhook's path as a refused delivery. */
    @Inject
    Event<RuntimeError> errors;

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
        errors.fire(new RuntimeError(path, status, detail, request));
        Response.ResponseBuilder problem = Problems.of(status, slug, title, detail, path == null ? null : "/" + path);
        original.getHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type")) {
                values.forEach(value -> problem.header(name, value));
            }
        });
        return problem.build();
    }

    private static String allowed(Response response) {
        String allow = response.getHeaderString("Allow");
        return allow == null ? "" : "; allowed: " + allow;
    }
}
