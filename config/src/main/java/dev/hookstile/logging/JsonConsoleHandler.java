package dev.hookstile.logging;

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.StreamHandler;

/**
 * The console handler of {@code HOOKSTILE_LOG_FORMAT=json}: each record as a {@link JsonLineFormatter} line on
 * standard output, written through at once. Not {@code java.util.logging.ConsoleHandler}, which writes to standard
 * error, where the launcher's own lines and the JVM's go: standard output carries JSON lines only, so a log
 * collector can parse every one of them.
 *
 * <p>So that it stays so, what the server prints to {@code System.out} itself becomes records too, a line each,
 * logger {@value #STANDARD_OUTPUT}, level {@code INFO}: Payara prints a line of its own there when it stops
 * ({@code JdbcRuntimeExtension, getAllSystemRAResourcesAndPools = ...}), which broke the stream of JSON lines.
 *
 * <p>Its level is {@code dev.hookstile.logging.JsonConsoleHandler.level} in the logging properties ({@code ALL}
 * when unset: the loggers' own levels decide), its filter {@code .filter}.
 */
public class JsonConsoleHandler extends StreamHandler {

    /** The logger name of a line printed to {@code System.out}. */
    static final String STANDARD_OUTPUT = "System.out";

    public JsonConsoleHandler() {
        this(new FileOutputStream(FileDescriptor.out));
        // The stream above is the process's standard output itself, whatever System.out is.
        System.setOut(new PrintStream(new Lines(this), true, StandardCharsets.UTF_8));
    }

    JsonConsoleHandler(OutputStream out) {
        super(out, new JsonLineFormatter());
        try {
            setEncoding(StandardCharsets.UTF_8.name());
        } catch (java.io.UnsupportedEncodingException impossible) {
            throw new IllegalStateException(impossible);
        }
        String level = LogManager.getLogManager().getProperty(JsonConsoleHandler.class.getName() + ".level");
        setLevel(level == null ? Level.ALL : Level.parse(level.trim()));
        // As java.util.logging.ConsoleHandler reads its own: the quiet console's ConsoleFilter, for one.
        String filter = LogManager.getLogManager().getProperty(JsonConsoleHandler.class.getName() + ".filter");
        if (filter != null && !filter.isBlank()) {
            try {
                setFilter((java.util.logging.Filter) ClassLoader.getSystemClassLoader().loadClass(filter.trim())
                        .getDeclaredConstructor().newInstance());
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new IllegalStateException("the console's filter " + filter + " cannot be used", e);
            }
        }
    }

    @Override
    public synchronized void publish(LogRecord record) {
        super.publish(record);
        flush();
    }

    /** Flushed, never closed: standard output outlives the log manager's reset. */
    @Override
    public synchronized void close() {
        flush();
    }

    /** What is printed to it, a record per line. */
    static final class Lines extends OutputStream {

        /** A line this long is written even before its end: a print without line breaks must not fill the heap. */
        static final int LONGEST = 64 * 1024;

        private final StreamHandler handler;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

        Lines(StreamHandler handler) {
            this.handler = handler;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                publish();
            } else {
                line.write(b);
                if (line.size() >= LONGEST) {
                    publish();
                }
            }
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                write(bytes[i]);
            }
        }

        private void publish() {
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            var record = new LogRecord(Level.INFO, text);
            record.setLoggerName(STANDARD_OUTPUT);
            handler.publish(record);
        }
    }
}
