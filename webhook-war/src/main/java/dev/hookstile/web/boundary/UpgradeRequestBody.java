package dev.hookstile.web.boundary;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Ends the body of an operator request that offers a protocol upgrade at its declared {@code Content-Length}.
 * With h2c off on the plain listener (docs/security.md), Grizzly hands such a request's body over as raw connection
 * content with no end: a JSON body read to its end (the JDK's HttpClient offers h2c on every new connection) then
 * waited for the socket's timeout, and {@code POST /api/replays} was never answered (ReplayCrashFaultIT).
 * Webhooks have their own bounded read ({@code BodyBuffer}).
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true, dispatcherTypes = DispatcherType.REQUEST)
public class UpgradeRequestBody extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long declared = request.getContentLengthLong();
        if (request.getHeader("Upgrade") == null || declared < 0) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(new Bounded(request, declared), response);
    }

    /** The request with a body that ends after {@code length} bytes. */
    static final class Bounded extends HttpServletRequestWrapper {

        private final long length;
        private ServletInputStream body;

        Bounded(HttpServletRequest request, long length) {
            super(request);
            this.length = length;
        }

        @Override
        public synchronized ServletInputStream getInputStream() throws IOException {
            if (body == null) {
                body = new BoundedStream(super.getInputStream(), length);
            }
            return body;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }
    }

    static final class BoundedStream extends ServletInputStream {

        private final ServletInputStream in;
        private long remaining;

        BoundedStream(ServletInputStream in, long length) {
            this.in = in;
            this.remaining = length;
        }

        @Override
        public int read() throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int b = in.read();
            remaining = b < 0 ? 0 : remaining - 1;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (remaining <= 0) {
                return -1;
            }
            int n = in.read(buffer, offset, (int) Math.min(length, remaining));
            remaining = n < 0 ? 0 : remaining - n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(in.available(), remaining);
        }

        @Override
        public boolean isFinished() {
            return remaining <= 0 || in.isFinished();
        }

        @Override
        public boolean isReady() {
            return remaining <= 0 || in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
