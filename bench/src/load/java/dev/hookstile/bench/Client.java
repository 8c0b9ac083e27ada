package dev.hookstile.bench;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Locale;

/**
 * One keep-alive connection with its own signer and buffers: builds a signed request, writes it in one go and
 * reads the answer (Content-Length, chunked, or until close). Re-connects when the server closed it.
 */
final class Client {

    // A push event shaped like GitHub's, 732 bytes with an id of 19 characters; the id makes each body distinct.
    static final String BODY = "{\"ref\":\"refs/heads/main\",\"before\":\"6113728f27ae82c7b1a177c8d03f9e96e0adf246\","
            + "\"after\":\"59b20b8d5c6ff8d09518454d4dd8b7b30f095ab5\",\"repository\":{\"id\":1296269,\"name\":\"hookstile\","
            + "\"full_name\":\"octo-org/hookstile\",\"private\":false,\"owner\":{\"login\":\"octo-org\",\"id\":6811672},"
            + "\"html_url\":\"https://github.com/octo-org/hookstile\",\"default_branch\":\"main\"},"
            + "\"pusher\":{\"name\":\"octocat\",\"email\":\"octocat@github.com\"},"
            + "\"sender\":{\"login\":\"octocat\",\"id\":583231,\"type\":\"User\"},"
            + "\"created\":false,\"deleted\":false,\"forced\":false,"
            + "\"head_commit\":{\"id\":\"59b20b8d5c6ff8d09518454d4dd8b7b30f095ab5\",\"message\":\"Bench delivery of %ID%\","
            + "\"timestamp\":\"2025-01-15T10:22:31Z\",\"author\":{\"name\":\"Mona Octocat\",\"email\":\"octocat@github.com\","
            + "\"username\":\"octocat\"}}}";

    private static final byte[] BODY_HEAD;
    private static final byte[] BODY_TAIL;

    static {
        int at = BODY.indexOf("%ID%");
        BODY_HEAD = BODY.substring(0, at).getBytes(StandardCharsets.UTF_8);
        BODY_TAIL = BODY.substring(at + 4).getBytes(StandardCharsets.UTF_8);
    }

    private final Options o;
    private final Mac mac;
    private final byte[] headStart;
    private final byte[] body = new byte[BODY_HEAD.length + BODY_TAIL.length + 512];
    private byte[] request = new byte[4096];
    private int requestLength;
    private final byte[] in = new byte[16384];
    private int pos;
    private int limit;
    private final StringBuilder line = new StringBuilder(128);
    private Socket socket;
    private InputStream input;
    private OutputStream output;

    Client(Options o) {
        this.o = o;
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(o.secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        String host = o.host.contains(":") ? "[" + o.host + "]" : o.host;
        headStart = ("POST " + o.path + " HTTP/1.1\r\n"
                + "Host: " + host + ":" + o.port + "\r\n"
                + "User-Agent: GitHub-Hookshot/hookstile-bench\r\n"
                + "Accept: */*\r\n"
                + "Content-Type: application/json\r\n"
                + "X-GitHub-Event: push\r\n"
                + "X-GitHub-Hook-ID: 123456789\r\n"
                + "X-GitHub-Delivery: ").getBytes(StandardCharsets.ISO_8859_1);
    }

    void tryConnect() {
        try {
            connect();
        } catch (IOException e) {
            System.err.println(Thread.currentThread().getName() + ": cannot connect: " + e);
            close();
        }
    }

    void connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setKeepAlive(true);
        s.setSoTimeout(o.timeoutMs);
        s.connect(new InetSocketAddress(o.host, o.port), o.timeoutMs);
        socket = s;
        input = s.getInputStream();
        output = s.getOutputStream();
        pos = 0;
        limit = 0;
    }

    void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        socket = null;
        input = null;
        output = null;
    }

    /** Sends one signed delivery of {@code id}; returns the status of its answer. */
    int send(String id) throws IOException {
        build(id);
        if (socket == null) {
            connect();
        }
        output.write(request, 0, requestLength);
        output.flush();
        return readResponse();
    }

    private void build(String id) {
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        int bodyLength = BODY_HEAD.length + idBytes.length + BODY_TAIL.length;
        byte[] b = bodyLength <= body.length ? body : new byte[bodyLength];
        System.arraycopy(BODY_HEAD, 0, b, 0, BODY_HEAD.length);
        System.arraycopy(idBytes, 0, b, BODY_HEAD.length, idBytes.length);
        System.arraycopy(BODY_TAIL, 0, b, BODY_HEAD.length + idBytes.length, BODY_TAIL.length);
        mac.update(b, 0, bodyLength);
        String signature = hex(mac.doFinal());
        String rest = id + "\r\nX-Hub-Signature-256: sha256=" + signature + "\r\nContent-Length: " + bodyLength
                + "\r\n\r\n";
        byte[] restBytes = rest.getBytes(StandardCharsets.ISO_8859_1);
        int total = headStart.length + restBytes.length + bodyLength;
        if (total > request.length) {
            request = new byte[total * 2];
        }
        System.arraycopy(headStart, 0, request, 0, headStart.length);
        System.arraycopy(restBytes, 0, request, headStart.length, restBytes.length);
        System.arraycopy(b, 0, request, headStart.length + restBytes.length, bodyLength);
        requestLength = total;
    }

    private int readResponse() throws IOException {
        while (true) {
            String statusLine = readLine();
            if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x status line: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            boolean http10 = statusLine.startsWith("HTTP/1.0");
            long contentLength = -1;
            boolean chunked = false;
            boolean close = http10;
            for (String header = readLine(); !header.isEmpty(); header = readLine()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    contentLength = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    String v = value.toLowerCase(Locale.ROOT);
                    if (v.contains("close")) {
                        close = true;
                    } else if (v.contains("keep-alive")) {
                        close = false;
                    }
                }
            }
            if (status >= 100 && status < 200) {
                continue; // 100 Continue and friends: the real answer follows
            }
            if (status == 204 || status == 304) {
                contentLength = 0;
            }
            if (chunked) {
                readChunked();
            } else if (contentLength >= 0) {
                skip(contentLength);
            } else {
                // Neither length nor chunks: the body runs until the server closes.
                try {
                    while (true) {
                        fill();
                    }
                } catch (EOFException end) {
                    close = true;
                }
            }
            if (close) {
                close();
            }
            return status;
        }
    }

    private void readChunked() throws IOException {
        while (true) {
            String size = readLine();
            int semicolon = size.indexOf(';');
            long length = Long.parseLong((semicolon >= 0 ? size.substring(0, semicolon) : size).trim(), 16);
            if (length == 0) {
                while (!readLine().isEmpty()) {
                    // trailers
                }
                return;
            }
            skip(length);
            readLine();
        }
    }

    private void skip(long n) throws IOException {
        while (n > 0) {
            if (pos == limit) {
                fill();
            }
            int step = (int) Math.min(n, limit - pos);
            pos += step;
            n -= step;
        }
    }

    private String readLine() throws IOException {
        line.setLength(0);
        while (true) {
            if (pos == limit) {
                fill();
            }
            byte c = in[pos++];
            if (c == '\n') {
                int len = line.length();
                if (len > 0 && line.charAt(len - 1) == '\r') {
                    line.setLength(len - 1);
                }
                return line.toString();
            }
            line.append((char) (c & 0xff));
            if (line.length() > 65536) {
                throw new IOException("header line too long");
            }
        }
    }

    private void fill() throws IOException {
        if (input == null) {
            throw new EOFException("not connected");
        }
        int n = input.read(in, 0, in.length);
        if (n < 0) {
            throw new EOFException("the server closed the connection");
        }
        pos = 0;
        limit = n;
    }

    static String hex(byte[] bytes) {
        char[] digits = "0123456789abcdef".toCharArray();
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = digits[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = digits[bytes[i] & 0xf];
        }
        return new String(out);
    }
}
