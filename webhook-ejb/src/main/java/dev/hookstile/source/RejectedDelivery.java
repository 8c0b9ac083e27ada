package dev.hookstile.source;

/**
 * A delivery that must not be accepted. The detail is shown to the sender, so it explains what is wrong without
 * revealing anything secret (never an expected signature).
 */
public class RejectedDelivery extends Exception {

    private final Rejection reason;
    /** The body it came with, when it was read whole: for the SHA-256 kept of a refused delivery. */
    private transient byte[] body;

    public RejectedDelivery(Rejection reason, String detail) {
        super(detail, null, false, false);
        this.reason = reason;
    }

    public Rejection reason() {
        return reason;
    }

    public String detail() {
        return getMessage();
    }

    /** The body as read whole, or {@code null}. */
    public byte[] body() {
        return body;
    }

    /** This refusal, noting the body it came with. */
    public RejectedDelivery withBody(byte[] read) {
        this.body = read;
        return this;
    }
}
