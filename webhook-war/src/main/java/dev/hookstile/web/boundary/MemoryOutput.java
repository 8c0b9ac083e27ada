package dev.hookstile.web.boundary;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.ByteArrayOutputStream;

/** A servlet output stream into memory, for an answer held until it is complete; written on its request's thread. */
public final class MemoryOutput extends ServletOutputStream {

    private final ByteArrayOutputStream bytes;

    public MemoryOutput(ByteArrayOutputStream bytes) {
        this.bytes = bytes;
    }

    @Override
    public void write(int b) {
        bytes.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
    }

    @Override
    public boolean isReady() {
        return true;
    }

    @Override
    public void setWriteListener(WriteListener listener) {
        throw new IllegalStateException("an answer held in memory is written on its request's thread");
    }
}
