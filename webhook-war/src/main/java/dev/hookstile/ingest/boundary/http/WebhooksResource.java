package dev.hookstile.ingest.boundary.http;

import dev.hookstile.api.Text;
import dev.hookstile.ingest.Outcome;
import dev.hookstile.ingest.boundary.DeliveryMetrics;
import dev.hookstile.ingest.boundary.Ingest;
import dev.hookstile.ingest.boundary.Receipt;
import dev.hookstile.platform.boundary.LogFields;
import dev.hookstile.web.boundary.Problems;
import dev.hookstile.web.boundary.RefusedRequests;
import dev.hookstile.source.Answer;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.queue.boundary.HandOffFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.spi.JsonProvider;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /webhooks/{source}}: the endpoint senders deliver to; {@code GET} for the subscription handshake of
 * providers that have one (Meta). Application-scoped, so no per-request construction or JNDI lookups; the body
 * arrives as a stream and is read once, within the size limit.
 */
@Path("webhooks/{source}")
@ApplicationScoped
public class WebhooksResource {

    // Json.createObjectBuilder() looks the provider up through the ServiceLoader on every call (a fifth of the
    // request CPU under load, profiled): resolve it once.
    private static final JsonProvider JSON = JsonProvider.provider();

    private static final Logger LOG = Logger.getLogger(WebhooksResource.class.getName());

    @Inject
    Ingest ingest;

    @Inject
    DeliveryMetrics metrics;

    /** The request as the container has it, for what is kept of a refused one (its peer address); a proxy. */
    @Context
    HttpServletRequest servletRequest;

    /**
     * One parameter besides the source, the request itself: Jersey resolves each {@code @Context} parameter through
     * its injection manager on every request, and an entity parameter through a reader lookup; with the headers, the
     * address, the body and a servlet request separately that was a twentieth of the server's CPU per new event
     * (profiled, docs/benchmarks.md). A property set here is a servlet request attribute (Jersey's servlet container),
     * which {@link BodyBuffer} reads.
     */
    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(@PathParam("source") String source, @Context ContainerRequestContext request) {
        try {
            Receipt receipt = ingest.receive(source, request::getHeaderString,
                    request.getUriInfo().getRequestUri().toString(), request.getLength(), request.getEntityStream());
            if (receipt.answer() != null) {
                return answer(receipt.answer());
            }
            Outcome outcome = receipt.outcome();
            request.setProperty(BodyBuffer.ANSWERED, outcome);
            return Response.status(outcome == Outcome.DUPLICATE ? Response.Status.OK : Response.Status.ACCEPTED)
                    .type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(json(receipt))
                    .build();
        } catch (RejectedDelivery rejected) {
            return refuse(source, rejected);
        } catch (HandOffFailure failure) {
            metrics.brokerUnavailable();
            LOG.log(Level.WARNING, "Could not queue a delivery to " + source + " durably; answered 503", failure);
            return Problems.brokerUnavailable("the event could not be stored durably; it was not accepted, retry later",
                    "/webhooks/" + source);
        }
    }

    @GET
    public Response handshake(@PathParam("source") String source, @Context UriInfo uri) {
        try {
            Map<String, String> query = new HashMap<>();
            uri.getQueryParameters().forEach((name, values) -> query.put(name, values.get(0)));
            return answer(ingest.handshake(source, query));
        } catch (RejectedDelivery rejected) {
            return refuse(source, rejected);
        }
    }

    private Response refuse(String source, RejectedDelivery rejected) {
        var reason = rejected.reason();
        metrics.rejected(source, reason, RefusedRequests.of(servletRequest, source, reason, rejected.detail(),
                rejected.body()));
        // The source and the detail come from the request (an unknown source is any path segment).
        LogFields.of(LogFields.SOURCE, source).and("rejection", reason.slug()).log(LOG, Level.FINE,
                () -> "Refused a delivery to " + Text.quoted(source) + ": " + reason.slug() + " "
                        + Text.escaped(rejected.detail()));
        var problem = Problems.of(reason.status(), reason.slug(), reason.title(), rejected.detail(),
                "/webhooks/" + source);
        if (reason == Rejection.BODY_BUFFERS_FULL || reason == Rejection.BODY_TIMEOUT) {
            // The rest of the body was never read: the connection cannot carry another request.
            problem.header("Connection", "close");
        }
        if (reason.status() == 503) {
            problem.header("Retry-After", Problems.RETRY_AFTER_SECONDS);
        }
        return problem.build();
    }

    private static Response answer(Answer answer) {
        return Response.status(answer.status()).type(answer.mediaType()).entity(answer.body()).build();
    }

    /**
     * The answer's body as bytes: Jersey writes a {@code String} entity through a new {@code OutputStreamWriter},
     * whose encoder allocates an 8 KB buffer for every answer (a twentieth of what a new event allocated, profiled
     * with JFR in docs/benchmarks.md); a {@code byte[]} is written as it is.
     */
    private static byte[] json(Receipt receipt) {
        var json = JSON.createObjectBuilder()
                .add("status", receipt.outcome().label())
                .add("source", receipt.source())
                .add("eventId", receipt.events().get(0).eventId());
        if (receipt.events().size() > 1) {
            var events = JSON.createArrayBuilder();
            receipt.events().forEach(e -> events.add(JSON.createObjectBuilder()
                    .add("eventId", e.eventId()).add("status", e.outcome().label())));
            json.add("events", events);
        }
        return json.build().toString().getBytes(StandardCharsets.UTF_8);
    }
}
