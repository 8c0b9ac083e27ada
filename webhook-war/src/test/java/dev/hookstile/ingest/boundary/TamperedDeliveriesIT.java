package dev.hookstile.ingest.boundary;

import dev.hookstile.it.DeployedHookstile;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzing the ingest endpoint: thousands of random mutations of valid, signed deliveries. Every mutation changes
 * something the signature covers (a body byte, the signature, a signed timestamp or id) or removes it, so none may
 * be accepted, and none may make the server fail (5xx) or hang. The seed is printed; set
 * {@code -Dhookstile.fuzz.seed=...} to replay a run.
 */
class TamperedDeliveriesIT extends DeployedHookstile {

    private static final int MUTATIONS = 2_400;
    private static final String HEX = "0123456789abcdef";
    private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /** A delivery as parts, so a mutation knows which header holds what. */
    private record Delivery(String source, Map<String, String> headers, byte[] body, String signatureHeader,
                            int signatureStart, int signatureEnd, String alphabet, String signedHeader,
                            String description) {
    }

    @Test
    void noTamperedDeliveryIsAcceptedAndNoneCausesAServerError() throws Exception {
        long seed = Long.getLong("hookstile.fuzz.seed", System.nanoTime());
        System.out.println("TamperedDeliveriesIT seed: " + seed);
        Random random = new Random(seed);
        var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        var failures = new ConcurrentLinkedQueue<String>();
        var refused = new AtomicInteger();
        List<Runnable> requests = new ArrayList<>();
        for (int i = 0; i < MUTATIONS; i++) {
            Delivery valid = valid(webhooks, random);
            Delivery tampered = mutate(valid, random);
            requests.add(() -> {
                try {
                    HttpResponse<String> response = http.send(request(webhooks, tampered), HttpResponse.BodyHandlers.ofString());
                    int status = response.statusCode();
                    if (status < 400 || status >= 500) {
                        failures.add(status + " for " + tampered.description() + ": " + response.body());
                    } else {
                        refused.incrementAndGet();
                    }
                } catch (Exception e) {
                    failures.add(e + " for " + tampered.description());
                }
            });
        }
        ExecutorService senders = Executors.newFixedThreadPool(4);
        requests.forEach(senders::execute);
        senders.shutdown();
        assertTrue(senders.awaitTermination(5, TimeUnit.MINUTES), "the fuzz run finished");

        assertTrue(failures.isEmpty(), failures.size() + " tampered deliveries were not refused (seed " + seed + "): "
                + failures.stream().limit(10).toList());
        assertEquals(MUTATIONS, refused.get());
        String after = "after-fuzz-" + UUID.randomUUID();
        assertEquals(202, webhooks.send(webhooks.standard("it", after, "{\"type\":\"calm\"}")).statusCode(),
                "the server still accepts a valid delivery");
    }

    private static Delivery valid(Webhooks webhooks, Random random) {
        String id = "fuzz-" + UUID.randomUUID();
        String body = "{\"id\":\"" + id + "\",\"type\":\"fuzz.case\",\"data\":{\"n\":" + random.nextInt(1000)
                + ",\"text\":\"caf\u00e9 \\\"q\\\"\",\"list\":[1,2,{\"k\":null}]}}";
        return switch (random.nextInt(3)) {
            case 0 -> from(webhooks.github(id, "push", body, Webhooks.GITHUB_SECRET), "gh", body,
                    "X-Hub-Signature-256", "sha256=".length(), HEX, null);
            case 1 -> {
                HttpRequest.Builder signed = webhooks.stripe(body);
                yield from(signed, "pay", body, "Stripe-Signature", -1, HEX, "Stripe-Signature");
            }
            default -> from(webhooks.standard("it", id, body), "it", body, "webhook-signature", "v1,".length(), BASE64,
                    random.nextBoolean() ? "webhook-timestamp" : "webhook-id");
        };
    }

    private static Delivery from(HttpRequest.Builder signed, String source, String body, String signatureHeader,
                                 int signatureStart, String alphabet, String signedHeader) {
        var headers = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        signed.build().headers().map().forEach((name, values) -> headers.put(name, values.get(0)));
        String signature = headers.get(signatureHeader);
        int start = signatureStart >= 0 ? signatureStart : signature.indexOf("v1=") + 3;
        // Only characters that carry signature bits: base64's last characters may hold padding bits only.
        int end = alphabet.equals(BASE64) ? start + 40 : signature.length();
        return new Delivery(source, headers, body.getBytes(StandardCharsets.UTF_8), signatureHeader, start, end,
                alphabet, signedHeader, source);
    }

    private static Delivery mutate(Delivery d, Random random) {
        byte[] body = d.body();
        var headers = new TreeMap<String, String>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(d.headers());
        String what;
        switch (random.nextInt(9)) {
            case 0 -> {
                body = body.clone();
                int at = random.nextInt(body.length);
                body[at] ^= (byte) (1 + random.nextInt(255));
                what = "body byte " + at + " changed";
            }
            case 1 -> {
                int at = random.nextInt(body.length + 1);
                byte[] longer = new byte[body.length + 1];
                System.arraycopy(body, 0, longer, 0, at);
                longer[at] = (byte) random.nextInt(256);
                System.arraycopy(body, at, longer, at + 1, body.length - at);
                body = longer;
                what = "byte inserted at " + at;
            }
            case 2 -> {
                int at = random.nextInt(body.length);
                byte[] shorter = new byte[body.length - 1];
                System.arraycopy(body, 0, shorter, 0, at);
                System.arraycopy(body, at + 1, shorter, at, body.length - at - 1);
                body = shorter;
                what = "byte removed at " + at;
            }
            case 3 -> {
                int length = random.nextInt(body.length);
                body = Arrays.copyOf(body, length);
                what = "body truncated to " + length;
            }
            case 4 -> {
                String signature = headers.get(d.signatureHeader());
                int at = d.signatureStart() + random.nextInt(d.signatureEnd() - d.signatureStart());
                char old = Character.toLowerCase(signature.charAt(at));
                char replacement;
                do {
                    replacement = d.alphabet().charAt(random.nextInt(d.alphabet().length()));
                } while (Character.toLowerCase(replacement) == old);
                headers.put(d.signatureHeader(), signature.substring(0, at) + replacement + signature.substring(at + 1));
                what = "signature character " + at + " changed";
            }
            case 5 -> {
                headers.remove(d.signatureHeader());
                what = "signature removed";
            }
            case 6 -> {
                var garbage = new StringBuilder();
                for (int i = random.nextInt(200); i >= 0; i--) {
                    garbage.append((char) (0x21 + random.nextInt(0x5e)));
                }
                headers.put(d.signatureHeader(), garbage.toString());
                what = "signature replaced by garbage";
            }
            case 7 -> {
                if (d.signedHeader() == null) {
                    return mutate(d, random);
                }
                String value = headers.get(d.signedHeader());
                int at = d.signedHeader().equals("Stripe-Signature") ? 2 + random.nextInt(value.indexOf(',') - 2)
                        : random.nextInt(value.length());
                char old = value.charAt(at);
                char replacement = Character.isDigit(old) ? (char) ('0' + (old - '0' + 1 + random.nextInt(9)) % 10)
                        : (old == 'a' ? 'b' : 'a');
                headers.put(d.signedHeader(), value.substring(0, at) + replacement + value.substring(at + 1));
                what = d.signedHeader() + " character " + at + " changed";
            }
            default -> {
                body = (new String(body, StandardCharsets.UTF_8) + "{}").getBytes(StandardCharsets.UTF_8);
                what = "bytes appended";
            }
        }
        return new Delivery(d.source(), headers, body, d.signatureHeader(), d.signatureStart(), d.signatureEnd(),
                d.alphabet(), d.signedHeader(), d.description() + ": " + what);
    }

    private static HttpRequest request(Webhooks webhooks, Delivery d) {
        var request = HttpRequest.newBuilder(URI.create(webhooks.base() + "webhooks/" + d.source()))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(d.body()));
        d.headers().forEach((name, value) -> {
            if (!name.equalsIgnoreCase("content-length") && !name.equalsIgnoreCase("host")) {
                request.header(name, value);
            }
        });
        return request.build();
    }
}
