package dev.hookstile.start.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;

/** A bean of a user's WAR that fails while the application starts, for a reason no setting names. */
@ApplicationScoped
public class BrokenStart {

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        throw new IllegalStateException("the receipts service's client could not be built");
    }
}
