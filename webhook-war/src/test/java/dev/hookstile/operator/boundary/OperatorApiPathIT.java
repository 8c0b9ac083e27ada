package dev.hookstile.operator.boundary;

import dev.hookstile.it.DeployedHookstile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Paths an attacker writes so that the servlet container and JAX-RS disagree on where they lead: encoded
 * dot-segments, path parameters ({@code ;}), encoded letters. Sent over a raw socket, exactly as written (an HTTP
 * client would normalise them). None may reach an operator resource without the token.
 *
 * <p>Before the fix, {@code /webhooks/..%2Fapi/events}-style paths were routed by JAX-RS to the operator resources
 * while the servlet filter on {@code /api/*} never saw them: {@code 200} with the recorded events, no token sent.
 */
class OperatorApiPathIT extends DeployedHookstile {

    private static final String TOKEN = System.getenv("HOOKSTILE_ADMIN_TOKEN");

    /** Dot-segments (raw, encoded, any case) and {@code ;}: refused as such, {@code 400}, before anything else. */
    private static final List<String> REFUSED = List.of(
            "webhooks/..%2Fapi/events",
            "webhooks/..%2fapi/events",
            "webhooks/%2e%2e%2fapi%2fevents",
            "webhooks/%2e%2e/api/events",
            "x/%2e%2e/api/events",
            "x/%2E%2E/api/events",
            "x/.%2e/api/events",
            "x/%2e./api/sources",
            "webhooks/%252e%252e/api/events",
            "x/../api/events",
            "./api/events",
            "api/./events",
            "api/%2e/sources",
            "api;x/events",
            "api;/sources",
            "api/events;x",
            "api/sources;jsessionid=1",
            "webhooks/;jsessionid=1",
            "webhooks;x/..%2Fapi/events",
            "api%3Bx/events");

    /** Other spellings of the operator API: they may be 401 or 404, never an answer with data. */
    private static final List<String> NEVER_OPEN = List.of(
            "%61pi/events",
            "%61%70%69/sources",
            "api%2Fevents",
            "api%2fsources",
            "/api/events",
            "API/events",
            "api/events/",
            "api//sources",
            "api/events?source=it",
            "api/deliveries",
            "api/forwardings",
            "api/replays/1",
            "%2Fapi/sources",
            "%2fapi/events",
            "ap%69/sources",
            "api/%73ources",
            "api/sources%2F",
            "api/sources%20",
            "api/sources%00",
            "api%00/sources",
            "api/sources%5C",
            // Grizzly refuses an encoded backslash itself (400, no body), before the application.
            "webhooks/..%5Capi/events",
            "api\\sources",
            "webhooks%2F..%2Fapi/sources",
            "webhooks/%2F%2E%2E%2Fapi/sources",
            "%C0%AE%C0%AE/api/sources",
            "webhooks/gh/%2E%2E/%2E%2E/api/sources");

    /** Spellings of the whole target, the context root included. */
    private static final List<String> WHOLE_TARGETS = List.of(
            "//{root}api/sources",
            "/x/../{root}api/sources",
            "/x/..%2F{root}api/sources",
            "/%2F{root}api/sources",
            "{root}../{root}api/sources",
            "{root}%2E%2E/{root}api/sources",
            "{rootNoSlash};x/api/sources",
            "{rootNoSlash}%2Fapi/sources",
            "{rootNoSlash}%2fapi%2fsources",
            "http://127.0.0.1:{port}{root}api/sources",
            "http://127.0.0.1:{port}{root}x/..%2Fapi/sources");

    /** The refusals of one test must not make the next one wait: the right token forgives the address. */
    @AfterEach
    void forgive() throws IOException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(330).toNanos();
        while (get("api/sources", TOKEN).status == 429 && System.nanoTime() < deadline) {
            dev.hookstile.it.Webhooks.sleep(java.time.Duration.ofMillis(500));
        }
    }

    @Test
    void dotSegmentsAndPathParametersAreRefusedWith400WithoutAToken() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String path : REFUSED) {
            Answer answer = get(path, null);
            if (answer.status != 400 || !answer.problem()) {
                wrong.add(path + " -> " + answer.status + " " + answer.body);
            }
        }
        assertEquals(List.of(), wrong, "each of these must be 400 problem+json");
    }

    @Test
    void dotSegmentsAreRefusedEvenWithTheToken() throws IOException {
        // Refused for what they are, not for a missing token: no path trick depends on who sends it.
        for (String path : List.of("webhooks/..%2Fapi/events", "api/./sources", "api;x/sources")) {
            Answer answer = get(path, TOKEN);
            assertEquals(400, answer.status, path + ": " + answer.body);
            assertTrue(answer.problem(), path + ": " + answer.headers);
        }
    }

    @Test
    void noOtherSpellingOfTheOperatorApiAnswersWithoutTheToken() throws IOException {
        List<String> open = new ArrayList<>();
        for (String path : NEVER_OPEN) {
            Answer answer = get(path, null);
            // 429: this test's own 401s add up to a wait for 127.0.0.1 (OperatorApiIT covers that).
            if (answer.status != 400 && answer.status != 401 && answer.status != 404 && answer.status != 429) {
                open.add(path + " -> " + answer.status + " " + answer.body);
            }
        }
        assertEquals(List.of(), open, "each must be 400, 401 or 404");
    }

    @Test
    void noSpellingOfTheWholeTargetOpensTheApi() throws IOException {
        URI base = URI.create(webhooks.base());
        String root = base.getRawPath();
        List<String> open = new ArrayList<>();
        for (String pattern : WHOLE_TARGETS) {
            String target = pattern.replace("{rootNoSlash}", root.substring(0, root.length() - 1))
                    .replace("{root}", root).replace("{port}", String.valueOf(base.getPort()));
            Answer answer = raw(target, null);
            // A 3xx here is the container's redirect to the context root (";x" after it), no operator data.
            if (answer.status >= 200 && answer.status < 300) {
                open.add(target + " -> " + answer.status + " " + answer.body);
            }
        }
        assertEquals(List.of(), open, "none may answer 2xx without the token");
    }

    @Test
    void theOrdinaryPathsStillWork() throws IOException {
        assertEquals(200, get("api/sources", TOKEN).status);
        assertEquals(401, get("api/sources", null).status);
        assertEquals(200, get("api/events?source=it&limit=1", TOKEN).status);
    }

    /** A GET written byte for byte as given, relative to the deployment's root; {@code null} token: none sent. */
    private Answer get(String relative, String token) throws IOException {
        return raw(URI.create(webhooks.base()).getRawPath() + relative, token);
    }

    /** The request target exactly as given. Each answer is printed: the table of what each spelling gets. */
    private Answer raw(String target, String token) throws IOException {
        URI base = URI.create(webhooks.base());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            String request = "GET " + target + " HTTP/1.1\r\n"
                    + "Host: " + base.getHost() + ":" + base.getPort() + "\r\n"
                    + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                    + "Connection: close\r\n\r\n";
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            String head = end < 0 ? text : text.substring(0, end);
            String body = end < 0 ? "" : text.substring(end + 4);
            int status = text.startsWith("HTTP/") ? Integer.parseInt(head.substring(9, 12)) : -1;
            System.out.println("PATH " + (token == null ? "without token " : "with token    ") + status + "  "
                    + target);
            return new Answer(target, status, head, body);
        }
    }

    private record Answer(String target, int status, String headers, String body) {
        boolean problem() {
            return headers.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/problem+json");
        }
    }
}
