package dev.hookstile.faults;

import dev.hookstile.it.Deployments;
import dev.hookstile.it.ItEnvironment;
import dev.hookstile.it.Ledger;
import dev.hookstile.it.ServerProcess;
import dev.hookstile.it.Traffic;
import dev.hookstile.it.Webhooks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Saturation: a thousand connections, half of them sending their body a byte per second (slowloris with complete
 * headers), half sending headers slowly. A client with no secret at all must not take the receiver off the air:
 * well-behaved senders are still answered, promptly, and what they were told was accepted is processed once.
 */
class SlowSendersFaultIT {

    private static final int SLOW_BODIES = 500;
    private static final int SLOW_HEADERS = 500;
    private static final int SENDERS = 4;

    private Path work;

    @BeforeEach
    void postgresOnly() throws Exception {
        work = ItEnvironment.faultWorkDirectory();
    }

    @Test
    void slowClientsDoNotStarveWellBehavedSenders() throws Exception {
        String prefix = "slow-" + UUID.randomUUID() + "-";
        List<Socket> slow = new ArrayList<>();
        try (var server = new ServerProcess(work, Deployments.exportTo(work.resolve("hookstile-it.war"))).start()) {
            for (int i = 0; i < SLOW_BODIES; i++) {
                slow.add(open(server.port(), "POST /webhooks/it HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"));
            }
            for (int i = 0; i < SLOW_HEADERS; i++) {
                slow.add(open(server.port(), "POST /webhooks/it HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
            }
            Thread drip = new Thread(() -> drip(slow), "drip");
            drip.setDaemon(true);
            drip.start();
            Webhooks.sleep(Duration.ofSeconds(5));

            Traffic traffic = Traffic.start(server.webhooks(), prefix, SENDERS);
            try (traffic) {
                Webhooks.sleep(Duration.ofSeconds(20));
            }
            drip.interrupt();
            List<Traffic.Sample> samples = traffic.samples();
            long answered = samples.stream().filter(s -> s.status() != Traffic.NO_ANSWER).count();
            long accepted = samples.stream().filter(s -> s.status() == 202).count();
            long p99 = Traffic.percentile(samples, 99);
            Ledger.Verdict verdict = new Ledger().awaitSettled(traffic.answers(), prefix, Duration.ofSeconds(60));
            Ledger.report(SLOW_BODIES + " slow bodies + " + SLOW_HEADERS + " slow headers", verdict,
                    "well-behaved: " + samples.size() + " sent, " + accepted + " accepted, p99 " + p99 + " ms");

            assertEquals(samples.size(), answered, "every well-behaved request was answered");
            assertTrue(accepted > 0, "and some were accepted");
            assertTrue(p99 < 2_000, "promptly: p99 " + p99 + " ms");
            assertTrue(verdict.exactlyOnce(), verdict.toString());
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    private static Socket open(int port, String start) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** A byte per second on every slow connection: a body of spaces, or one more header line, never the end. */
    private static void drip(List<Socket> sockets) {
        while (!Thread.currentThread().isInterrupted()) {
            for (Socket socket : sockets) {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(' ');
                    out.flush();
                } catch (IOException closedByServer) {
                    // the server may hang up on a slow client: that is the point
                }
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
