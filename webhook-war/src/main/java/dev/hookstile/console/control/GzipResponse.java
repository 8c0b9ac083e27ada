package dev.hookstile.console.control;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * A static file's answer, gzip-compressed on its way out: the console's scripts shrink to about a third. Only for
 * files that hold no secret (the console's own and the WebJars), so compression cannot leak one (BREACH); the
 * operator API's answers, which hold payloads beside the anti-forgery token, are never compressed.
 *
 * <p>The file servlet's Content-Length and byte ranges describe the uncompressed file: the length is dropped
 * (the answer is chunked) and {@link #wholeFile} takes {@code Range} away, so the whole file is always sent.
 * Nothing is compressed until a byte of body is written: a {@code 304} or a {@code HEAD} stays as it was.
 */
public final class GzipResponse extends HttpServletResponseWrapper {

    private final HttpServletResponse response;
    private GZIPOutputStream gzip;
    private ServletOutputStream stream;
    private PrintWriter writer;

    public GzipResponse(HttpServletResponse response) {
        super(response);
        this.response = response;
    }

    /** Whether an {@code Accept-Encoding} header admits gzip (and does not refuse it with {@code q=0}). */
    public static boolean accepted(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
            String[] coding = part.trim().split(";");
            if (coding[0].trim().equals("gzip")) {
                for (int i = 1; i < coding.length; i++) {
                    String parameter = coding[i].replace(" ", "");
                    if (parameter.matches("q=0(\\.0*)?")) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }

    /** The request without {@code Range} and {@code If-Range}: a compressed answer is always the whole file. */
    public static HttpServletRequest wholeFile(HttpServletRequest request) {
        return new HttpServletRequestWrapper(request) {
            @Override
            public String getHeader(String name) {
                return ranged(name) ? null : super.getHeader(name);
            }

            @Override
            public Enumeration<String> getHeaders(String name) {
                return ranged(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
            }

            @Override
            public long getDateHeader(String name) {
                return ranged(name) ? -1 : super.getDateHeader(name);
            }

            private boolean ranged(String name) {
                return "Range".equalsIgnoreCase(name) || "If-Range".equalsIgnoreCase(name);
            }
        };
    }

    private static boolean dropped(String name) {
        return "Content-Length".equalsIgnoreCase(name) || "Accept-Ranges".equalsIgnoreCase(name);
    }

    @Override
    public void setContentLength(int length) {
        // the compressed length is not known in advance
    }

    @Override
    public void setContentLengthLong(long length) {
        // the compressed length is not known in advance
    }

    @Override
    public void setHeader(String name, String value) {
        if (!dropped(name)) {
            super.setHeader(name, value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (!dropped(name)) {
            super.addHeader(name, value);
        }
    }

    @Override
    public void setIntHeader(String name, int value) {
        if (!dropped(name)) {
            super.setIntHeader(name, value);
        }
    }

    @Override
    public void addIntHeader(String name, int value) {
        if (!dropped(name)) {
            super.addIntHeader(name, value);
        }
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (writer != null) {
            throw new IllegalStateException("getWriter() was called already");
        }
        if (stream == null) {
            stream = new Compressing();
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (stream != null && writer == null) {
            throw new IllegalStateException("getOutputStream() was called already");
        }
        if (writer == null) {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
            stream = new Compressing();
            writer = new PrintWriter(new OutputStreamWriter(stream, charset));
        }
        return writer;
    }

    @Override
    public void flushBuffer() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        if (gzip != null) {
            gzip.flush();
        }
        super.flushBuffer();
    }

    @Override
    public void reset() {
        if (gzip != null) {
            throw new IllegalStateException("the compressed body has begun");
        }
        super.reset();
    }

    @Override
    public void resetBuffer() {
        if (gzip != null) {
            throw new IllegalStateException("the compressed body has begun");
        }
        super.resetBuffer();
    }

    /** Ends the compressed body; nothing when none was written. */
    public void finish() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        if (gzip != null) {
            gzip.finish();
            gzip.flush();
        }
    }

    private GZIPOutputStream gzip() throws IOException {
        if (gzip == null) {
            response.setHeader("Content-Encoding", "gzip");
            gzip = new GZIPOutputStream(response.getOutputStream(), 8192, true);
        }
        return gzip;
    }

    private final class Compressing extends ServletOutputStream {

        @Override
        public void write(int b) throws IOException {
            gzip().write(b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (length > 0) {
                gzip().write(bytes, offset, length);
            }
        }

        @Override
        public void flush() throws IOException {
            if (gzip != null) {
                gzip.flush();
            }
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            throw new UnsupportedOperationException("blocking writes only");
        }
    }
}
