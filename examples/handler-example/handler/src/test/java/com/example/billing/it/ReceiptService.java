package com.example.billing.it;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The e-mail service as the IT sees it: answers every receipt 200 and remembers it. */
final class ReceiptService {

    record Receipt(String idempotencyKey, String body) {
    }

    private final HttpServer server;
    private final List<Receipt> received = new CopyOnWriteArrayList<>();

    private ReceiptService(HttpServer server) {
        this.server = server;
    }

    static ReceiptService start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            ReceiptService service = new ReceiptService(server);
            server.createContext("/receipts", exchange -> {
                service.received.add(new Receipt(exchange.getRequestHeaders().getFirst("Idempotency-Key"),
                        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/receipts";
    }

    /** The receipts received for one invoice, in order. */
    List<Receipt> of(String invoice) {
        return received.stream().filter(r -> r.body().contains("\"invoice\":\"" + invoice + "\"")).toList();
    }
}
