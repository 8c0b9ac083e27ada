package dev.hookstile.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.LongAdder;

/** The {@code receive} mode: the bench's destination, counting what the outbox relay delivers, answering at once. */
final class Receiver {

    private Receiver() {
    }

    static void start(int port) throws IOException {
        LongAdder requests = new LongAdder();
        var server = com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                requests.increment();
                exchange.sendResponseHeaders(204, -1);
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            System.out.println("RESULT mode=receive requests=" + requests.sum());
            System.out.flush();
        }));
        server.start();
    }
}
