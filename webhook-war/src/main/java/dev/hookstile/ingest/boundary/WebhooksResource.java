package dev.hookstile.ingest.boundary;

import dev.hookstile.ingest.control.HandOffFailure;
import dev.hookstile.ingest.control.Ingest;
import dev.hookstile.ingest.control.Receipt;
import dev.hookstile.platform.boundary.Problems;
import dev.hookstile.provider.control.RejectedDelivery;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.spi.JsonProvider;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.InputStream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /webhooks/{source}}: the endpoint senders deliver to. Application-scoped, so no per-request
 * construction or JNDI lookups; the body arrives as a stream and is read once, within the size limit.
 */
@Path("webhooks/{source}")
@ApplicationScoped
public class WebhooksResource {

    // Json.createObjectBuilder() looks the provider up through the ServiceLoader on every call (a fifth of the
    // request CPU under load, profiled): resolve it once.
    private static final JsonProvider JSON = JsonProvider.provider();

    static final String RETRY_AFTER_SECONDS = "5";
    private static final Logger LOG = Logger.getLogger(WebhooksResource.class.getName());

    @Inject
    Ingest ingest;

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response receive(@PathParam("source") String source, @Context HttpHeaders headers, InputStream body) {
        try {
            Receipt receipt = ingest.receive(source, headers::getHeaderString, headers.getLength(), body);
            return Response.status(receipt.duplicate() ? Response.Status.OK : Response.Status.ACCEPTED)
                    .type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(JSON.createObjectBuilder()
                            .add("status", receipt.status())
                            .add("source", receipt.source())
                            .add("eventId", receipt.eventId())
                            .build().toString())
                    .build();
        } catch (RejectedDelivery rejected) {
            LOG.fine(() -> "Rejected a delivery to " + source + ": " + rejected.reason() + " " + rejected.detail());
            var reason = rejected.reason();
            return Problems.of(reason.status(), reason.slug(), reason.title(), rejected.detail(), "/webhooks/" + source)
                    .build();
        } catch (HandOffFailure failure) {
            LOG.log(Level.WARNING, "Could not queue a delivery to " + source + " durably; answered 503", failure);
            return Problems.of(503, "broker-unavailable", "Service unavailable",
                            "the event could not be stored durably; it was not accepted, retry later",
                            "/webhooks/" + source)
                    .header("Retry-After", RETRY_AFTER_SECONDS)
                    .build();
        }
    }
}
