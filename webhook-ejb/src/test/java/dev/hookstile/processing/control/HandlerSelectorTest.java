package dev.hookstile.processing.control;

import dev.hookstile.api.HandlesWebhooks;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandlerSelectorTest {

    @HandlesWebhooks
    static class EmptyAnnotation {
    }

    static class NoAnnotation {
    }

    @HandlesWebhooks(providers = "stripe")
    static class StripeOnly {
    }

    @HandlesWebhooks(providers = {"github", "standard-webhooks"})
    static class GitHubOrStandardWebhooks {
    }

    @HandlesWebhooks(sources = "billing")
    static class BillingSourceOnly {
    }

    @HandlesWebhooks(types = {"invoice.paid", "invoice.payment_failed"})
    static class InvoiceTypes {
    }

    @HandlesWebhooks(types = "invoice.*")
    static class InvoicePrefix {
    }

    @HandlesWebhooks(types = "*")
    static class AnyTypeWildcard {
    }

    @HandlesWebhooks(providers = "stripe", sources = "billing", types = {"customer.created", "invoice.*"})
    static class AllNarrowed {
    }

    private static HandlerSelector selectorOf(Class<?> handler) {
        return HandlerSelector.of(handler.getAnnotation(HandlesWebhooks.class));
    }

    @Test
    void emptyAnnotationMatchesEverything() {
        var selector = selectorOf(EmptyAnnotation.class);

        assertTrue(selector.matches("gh", "github", "push"));
        assertTrue(selector.matches("billing", "stripe", "invoice.paid"));
        assertTrue(selector.matches("svix", "standard-webhooks", ""));
    }

    @Test
    void missingAnnotationMatchesEverything() {
        var selector = selectorOf(NoAnnotation.class);

        assertEquals(new HandlerSelector(List.of(), List.of(), List.of()), selector);
        assertTrue(selector.matches("gh", "github", "push"));
        assertTrue(selector.matches("billing", "stripe", ""));
    }

    @Test
    void providersNarrowTheSelection() {
        var selector = selectorOf(StripeOnly.class);

        assertTrue(selector.matches("billing", "stripe", "invoice.paid"));
        assertTrue(selector.matches("other", "stripe", "anything"));
        assertFalse(selector.matches("billing", "github", "invoice.paid"));
    }

    @Test
    void anyOfSeveralProvidersMatches() {
        var selector = selectorOf(GitHubOrStandardWebhooks.class);

        assertTrue(selector.matches("gh", "github", "push"));
        assertTrue(selector.matches("svix", "standard-webhooks", "user.created"));
        assertFalse(selector.matches("billing", "stripe", "invoice.paid"));
    }

    @Test
    void sourcesNarrowTheSelection() {
        var selector = selectorOf(BillingSourceOnly.class);

        assertTrue(selector.matches("billing", "stripe", "invoice.paid"));
        assertFalse(selector.matches("billing-eu", "stripe", "invoice.paid"));
        assertFalse(selector.matches("gh", "github", "push"));
    }

    @Test
    void typesMatchExactly() {
        var selector = selectorOf(InvoiceTypes.class);

        assertTrue(selector.matches("billing", "stripe", "invoice.paid"));
        assertTrue(selector.matches("billing", "stripe", "invoice.payment_failed"));
        assertFalse(selector.matches("billing", "stripe", "invoice.paid.extra"));
        assertFalse(selector.matches("billing", "stripe", "invoice"));
        assertFalse(selector.matches("billing", "stripe", ""));
    }

    @Test
    void trailingStarMatchesTypesWithThePrefix() {
        var selector = selectorOf(InvoicePrefix.class);

        assertTrue(selector.matches("billing", "stripe", "invoice.paid"));
        assertTrue(selector.matches("billing", "stripe", "invoice.payment_failed"));
        assertTrue(selector.matches("billing", "stripe", "invoice."));
    }

    @Test
    void trailingStarDoesNotMatchWhatOnlySharesTheWordBeforeTheDot() {
        var selector = selectorOf(InvoicePrefix.class);

        assertFalse(selector.matches("billing", "stripe", "invoiced"));
        assertFalse(selector.matches("billing", "stripe", "invoice"));
        assertFalse(selector.matches("billing", "stripe", "customer.invoice.paid"));
    }

    @Test
    void loneStarMatchesEveryType() {
        var selector = selectorOf(AnyTypeWildcard.class);

        assertTrue(selector.matches("gh", "github", "push"));
        assertTrue(selector.matches("gh", "github", ""));
    }

    @Test
    void allAttributesMustMatchTogether() {
        var selector = selectorOf(AllNarrowed.class);

        assertTrue(selector.matches("billing", "stripe", "customer.created"));
        assertTrue(selector.matches("billing", "stripe", "invoice.voided"));
        assertFalse(selector.matches("billing", "stripe", "customer.deleted"));
        assertFalse(selector.matches("billing-eu", "stripe", "invoice.voided"));
        assertFalse(selector.matches("billing", "standard-webhooks", "invoice.voided"));
    }

    @Test
    void describesItselfForTheStartupLog() {
        assertEquals("(providers=any, sources=any, types=any)", selectorOf(EmptyAnnotation.class).toString());
        assertEquals("(providers=[stripe], sources=[billing], types=[customer.created, invoice.*])",
                selectorOf(AllNarrowed.class).toString());
    }
}
