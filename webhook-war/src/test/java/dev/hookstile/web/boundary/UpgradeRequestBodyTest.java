package dev.hookstile.web.boundary;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UpgradeRequestBodyTest {

    /** A connection's raw content: the declared body, then what never ends (here: more bytes) as Grizzly hands it. */
    private static ServletInputStream connection(String content) {
        InputStream bytes = new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8));
        return new ServletInputStream() {
            @Override
            public int read() throws java.io.IOException {
                return bytes.read();
            }

            @Override
            public boolean isFinished() {
                return false;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
            }
        };
    }

    @Test
    void theBodyEndsAtItsDeclaredLengthThoughTheConnectionGoesOn() throws Exception {
        var body = new UpgradeRequestBody.BoundedStream(connection("{\"a\":1}GET /next HTTP/1.1"), 7);

        assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.UTF_8), body.readAllBytes());
        assertEquals(-1, body.read());
        assertTrue(body.isFinished());
    }

    @Test
    void anEmptyDeclaredBodyIsFinishedAtOnce() throws Exception {
        var body = new UpgradeRequestBody.BoundedStream(connection("anything"), 0);

        assertEquals(-1, body.read(new byte[8], 0, 8));
        assertTrue(body.isFinished());
    }
}
