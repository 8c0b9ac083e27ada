package dev.hookstile.bench;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.io.InputStream;

/**
 * {@code POST /bench/bare}: the limit the benchmark compares ingest with. The same Payara Micro, JAX-RS application
 * and request as {@code POST /webhooks/<source>}, minus Hookstile's work: the body is read fully and answered
 * {@code 202} with a small JSON body, nothing verified, looked up or queued.
 */
@Path("bench/bare")
@ApplicationScoped
public class BareResource {

    private static final String ACCEPTED = "{\"status\":\"accepted\"}";

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(InputStream body) throws IOException {
        body.readAllBytes();
        return accepted();
    }

    /** The answer of both bench endpoints: ingest's {@code 202}, as small. */
    static Response accepted() {
        return Response.status(Response.Status.ACCEPTED)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ACCEPTED)
                .build();
    }
}
