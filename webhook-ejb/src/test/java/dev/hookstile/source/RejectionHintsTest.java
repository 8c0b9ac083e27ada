package dev.hookstile.source;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of refusal tells the operator what to try: the Refused page shows it beside the reason. */
class RejectionHintsTest {

    @Test
    void everyReasonHasAFixToTry() {
        for (Rejection reason : Rejection.values()) {
            assertTrue(reason.hint() != null && reason.hint().length() > 20, reason + ": " + reason.hint());
        }
    }
}
