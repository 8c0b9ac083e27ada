package dev.hookstile.web.boundary;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

import java.util.Map;

/** JAX-RS at the root: {@code /webhooks/{source}} for senders, {@code /api} for operators. */
@ApplicationPath("/")
public class HookstileApplication extends Application {

    /**
     * Jersey's {@code jersey.config.server.contentLength.buffer}: how much of an answer it holds to send it with a
     * {@code Content-Length} rather than in chunks. Jersey allocates the whole buffer for every answer before writing
     * a byte (8 KiB by default, measured in its CommittingOutputStream), while a webhook's answer is about a hundred
     * bytes and a problem's a few hundred: 1 KiB keeps both whole. A longer answer (a page of the operator API) is
     * sent in chunks, or held whole for a client offering h2c ({@link UpgradeOfferAnswers}).
     */
    static final int ANSWER_BUFFER_BYTES = 1024;

    @Override
    public Map<String, Object> getProperties() {
        return Map.of("jersey.config.server.contentLength.buffer", ANSWER_BUFFER_BYTES);
    }
}
