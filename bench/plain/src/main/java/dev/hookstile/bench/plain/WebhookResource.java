package dev.hookstile.bench.plain;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;

/**
 * {@code POST /webhooks/{source}}: verifies GitHub's signature and stores the event, answering once the row is
 * committed. A redelivery hits the unique key and is answered as a duplicate, so the sender stops retrying.
 */
@Path("webhooks/{source}")
@ApplicationScoped
public class WebhookResource {

    private static final int MAX_BODY = 1 << 20;
    private static final String INSERT = "INSERT INTO plain_event (source, event_id, event_type, payload)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String SIGNATURE_PREFIX = "sha256=";
    // Initialised once and cloned per request: a Mac is not thread-safe, and the key setup is the costly part.
    private static final Mac HMAC = hmac(PlainReceiver.env("BENCH_SECRET", "hookstile-bench-secret"));

    @Resource(lookup = PlainReceiver.DATA_SOURCE)
    DataSource dataSource;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response receive(@PathParam("source") String source,
                            @HeaderParam("X-Hub-Signature-256") String signature,
                            @HeaderParam("X-GitHub-Delivery") String eventId,
                            @HeaderParam("X-GitHub-Event") String eventType,
                            InputStream body) throws IOException, SQLException {
        // One byte more than allowed tells an oversized body from one of exactly 1 MiB.
        byte[] payload = body.readNBytes(MAX_BODY + 1);
        if (payload.length > MAX_BODY) {
            return problem(Status.REQUEST_ENTITY_TOO_LARGE, "Body larger than 1 MiB");
        }
        if (!signedBySender(signature, payload)) {
            return problem(Status.UNAUTHORIZED, "Missing or invalid X-Hub-Signature-256");
        }
        if (eventId == null || eventId.isEmpty()) {
            return problem(Status.BAD_REQUEST, "Missing X-GitHub-Delivery");
        }
        try (var connection = dataSource.getConnection(); var insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, source);
            insert.setString(2, eventId);
            insert.setString(3, eventType == null ? "" : eventType);
            insert.setBytes(4, payload);
            return insert.executeUpdate() == 1
                    ? Response.status(Status.ACCEPTED).type(MediaType.APPLICATION_JSON_TYPE)
                            .entity("{\"status\":\"accepted\"}").build()
                    : Response.ok("{\"status\":\"duplicate\"}", MediaType.APPLICATION_JSON_TYPE).build();
        }
    }

    private static boolean signedBySender(String header, byte[] payload) {
        if (header == null || !header.startsWith(SIGNATURE_PREFIX)) {
            return false;
        }
        byte[] claimed;
        try {
            claimed = HexFormat.of().parseHex(header, SIGNATURE_PREFIX.length(), header.length());
        } catch (IllegalArgumentException notHex) {
            return false;
        }
        try {
            // Constant time: how long the comparison takes must not tell an attacker how many bytes were right.
            return MessageDigest.isEqual(((Mac) HMAC.clone()).doFinal(payload), claimed);
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Mac hmac(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Response problem(Status status, String title) {
        return Response.status(status).type("application/problem+json")
                .entity("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status.getStatusCode()
                        + "}")
                .build();
    }
}
