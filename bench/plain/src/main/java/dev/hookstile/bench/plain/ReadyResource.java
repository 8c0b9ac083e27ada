package dev.hookstile.bench.plain;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code GET /plain/ready}: what the benchmark polls to time the cold start. */
@Path("plain/ready")
@ApplicationScoped
public class ReadyResource {

    @Inject
    PlainReceiver receiver;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public Response ready() {
        return receiver.ready()
                ? Response.ok("ready").build()
                : Response.status(Response.Status.SERVICE_UNAVAILABLE).entity("starting").build();
    }
}
