package dev.hookstile.source.control;

import dev.hookstile.source.Provider;

import java.util.List;

/** One instance of each signing scheme this package implements, for the registry ({@code Providers}). */
public final class Signers {

    private Signers() {
    }

    public static List<Provider> all() {
        return List.of(
                new GitHub(),
                new Stripe(),
                new StandardWebhooks(),
                new StandardWebhooks("svix", "svix-"),
                new Shopify(),
                new Slack(),
                new Twilio(),
                new Meta(),
                new ConfiguredHmac());
    }
}
