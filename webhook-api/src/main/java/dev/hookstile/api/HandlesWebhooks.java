package dev.hookstile.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Says which events a {@link WebhookHandler} receives. Each attribute narrows the selection; an empty attribute
 * matches everything. A handler without this annotation receives every event.
 *
 * <pre>{@code
 * @ApplicationScoped
 * @HandlesWebhooks(providers = "stripe", types = {"invoice.paid", "invoice.payment_failed"})
 * public class InvoiceHandler implements WebhookHandler { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface HandlesWebhooks {

    /** Provider names, e.g. {@code github}, {@code stripe}. */
    String[] providers() default {};

    /** Configured source names, e.g. {@code gh}. */
    String[] sources() default {};

    /** Event types, matched exactly, e.g. {@code push}; a trailing {@code *} matches a prefix ({@code invoice.*}). */
    String[] types() default {};
}
