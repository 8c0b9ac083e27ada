package dev.hookstile.source;

/**
 * A delivery that must not be accepted. The detail is shown to the sender, so it explains what is wrong without
 * revealing anything secret (never an expected signature).
 */
public class RejectedDelivery extends Exception {

    private final Rejection reason;

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
}
