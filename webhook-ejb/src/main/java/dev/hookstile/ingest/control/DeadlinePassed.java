package dev.hookstile.ingest.control;

import java.io.IOException;

/** The deadline passed between two reads: no read is started. */
final class DeadlinePassed extends IOException {
    DeadlinePassed() {
        super("the body deadline passed", null);
    }
}
