package dev.hookstile.bench;

import dev.hookstile.queue.boundary.EventMessage;
import dev.hookstile.queue.boundary.EventMessage.Outgoing;
import dev.hookstile.queue.boundary.EventQueue;
import dev.hookstile.queue.boundary.HandOffFailure;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * {@code POST /bench/queued}: the floor of Hookstile's shape under the tail. The same request as
 * {@code POST /webhooks/bench}, its event stored in the broker by the request's own thread (a held producer, a
 * persistent send that returns once the broker stored it) and then processed like every event (the claim, the
 * history, the bench's handler), but nothing verified, looked up or passed between ingest's stages: what a request
 * costs when the durable hand-off is one send and nothing else. The event's id is the delivery's
 * ({@code X-GitHub-Delivery}), which the load generator makes new for every request.
 */
@Path("bench/queued")
@ApplicationScoped
public class QueuedResource {

    /** The headers every event of this endpoint keeps: none. */
    private static final String NO_HEADERS = EventMessage.headersJson(Map.of());

    @Inject
    EventQueue queue;

    /**
     * Producers between requests: a request takes one and puts it back. Fewer than the hand-off's connection pool
     * holds (16, one of them ingest's sender's): a request never waits for a connection, only for a producer.
     */
    private static final int PRODUCERS = 8;

    private final BlockingQueue<EventQueue.HeldProducer> producers = new ArrayBlockingQueue<>(PRODUCERS);

    @PostConstruct
    void open() {
        for (int i = 0; i < PRODUCERS; i++) {
            producers.add(queue.holdProducer());
        }
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(InputStream body, @HeaderParam("X-GitHub-Delivery") String id,
                            @HeaderParam("X-GitHub-Event") String type) throws IOException, HandOffFailure {
        Outgoing event = new Outgoing("bench", "github", id, type == null ? "bench" : type, null, Instant.now(),
                NO_HEADERS, body.readAllBytes());
        EventQueue.HeldProducer producer;
        try {
            producer = producers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).build();
        }
        try {
            producer.send(EventQueue.queueOf(event), List.of(event));
        } finally {
            producers.offer(producer);
        }
        return BareResource.accepted();
    }

    @PreDestroy
    void close() {
        EventQueue.HeldProducer producer;
        while ((producer = producers.poll()) != null) {
            producer.close();
        }
    }
}
