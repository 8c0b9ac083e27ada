package dev.hookstile.web.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * Holds the whole answer to an operator request ({@code /api}, {@code /metrics}) that offers a protocol upgrade until
 * it is complete, then hands it to the container in one piece that fits its output buffer. The JDK's HttpClient
 * offers h2c on every new plain connection; with h2c off (docs/security.md) Grizzly answers such a request in
 * HTTP/1.1, but when the answer outgrew its output buffer (Jersey flushes at 8 KiB) the headers went out without
 * {@code Content-Type} and {@code Connection: close}, and with neither a length nor chunks (measured with curl and
 * OperatorApiIT; an answer that fits the buffer went out whole and right). These answers are bounded (a page, the
 * metrics text), and such requests are read and answered on their thread (BodyBuffer reads their bodies blocking),
 * so holding one costs its size once.
 */
public class UpgradeOfferAnswers extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getHeader("Upgrade") == null) {
            chain.doFilter(request, response);
            return;
        }
        var held = new Held(response);
        chain.doFilter(request, held);
        held.send();
    }

    /** The response, its body kept in memory until {@link #send}. */
    static final class Held extends HttpServletResponseWrapper {

        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private ServletOutputStream stream;
        private PrintWriter writer;
        private String type;

        Held(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() {
            if (stream == null) {
                stream = new MemoryOutput(bytes);
            }
            return stream;
        }

        @Override
        public PrintWriter getWriter() {
            if (writer == null) {
                writer = new PrintWriter(new OutputStreamWriter(getOutputStream(),
                        Charset.forName(getCharacterEncoding())));
            }
            return writer;
        }

        @Override
        public void setContentType(String type) {
            this.type = type;
            super.setContentType(type);
        }

        @Override
        public void setHeader(String name, String value) {
            if ("Content-Type".equalsIgnoreCase(name)) {
                setContentType(value);
            } else {
                super.setHeader(name, value);
            }
        }

        @Override
        public void addHeader(String name, String value) {
            if ("Content-Type".equalsIgnoreCase(name)) {
                setContentType(value);
            } else {
                super.addHeader(name, value);
            }
        }

        @Override
        public void flushBuffer() {
            // held until send()
        }

        @Override
        public boolean isCommitted() {
            return false;
        }

        @Override
        public void setContentLength(int length) {
            // the length sent is what was written
        }

        @Override
        public void setContentLengthLong(long length) {
            // the length sent is what was written
        }

        @Override
        public void resetBuffer() {
            bytes.reset();
        }

        @Override
        public void reset() {
            super.reset();
            bytes.reset();
        }

        void send() throws IOException {
            if (writer != null) {
                writer.flush();
            }
            HttpServletResponse response = (HttpServletResponse) getResponse();
            if (response.isCommitted()) {
                return;
            }
            if (type != null) {
                response.setContentType(type);
            }
            response.setContentLengthLong(bytes.size());
            response.setBufferSize(bytes.size() + 1024);
            bytes.writeTo(response.getOutputStream());
        }
    }
}
