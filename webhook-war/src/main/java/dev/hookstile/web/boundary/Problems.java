package dev.hookstile.web.boundary;

import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** RFC 9457 problem details: every error Hookstile answers is {@code application/problem+json}. */
public final class Problems {

    // Json.createObjectBuilder() looks the provider up through the ServiceLoader on every call (a fifth of the
    // request CPU under load, profiled): resolve it once.
    private static final JsonProvider JSON = JsonProvider.provider();

    public static final String MEDIA_TYPE = "application/problem+json";
    /** Built, not parsed: parsing needs a JAX-RS runtime, and the servlet filters' refusals are tested without one. */
    public static final MediaType PROBLEM_JSON = new MediaType("application", "problem+json");
    private static final String TYPE_PREFIX = "urn:hookstile:problem:";

    private Problems() {
    }

    /** How long a caller should wait before retrying what a broker or database outage refused, in seconds. */
    public static final String RETRY_AFTER_SECONDS = "5";

    /**
     * {@code 503 broker-unavailable} with {@code Retry-After}: the broker could not store what was asked, so nothing
     * was accepted or changed and the caller should retry.
     */
    public static Response brokerUnavailable(String detail, String instance) {
        return of(503, "broker-unavailable", "Service unavailable", detail, instance)
                .header("Retry-After", RETRY_AFTER_SECONDS)
                .build();
    }

    public static Response.ResponseBuilder of(int status, String slug, String title, String detail, String instance) {
        return Response.status(status).type(PROBLEM_JSON).entity(json(status, slug, title, detail, instance));
    }

    /** The body alone, for answers written before JAX-RS runs (the operator API's authentication). */
    public static String json(int status, String slug, String title, String detail, String instance) {
        var body = JSON.createObjectBuilder()
                .add("type", TYPE_PREFIX + slug)
                .add("title", title)
                .add("status", status)
                .add("detail", detail);
        if (instance != null) {
            body.add("instance", instance);
        }
        return body.build().toString();
    }
}
