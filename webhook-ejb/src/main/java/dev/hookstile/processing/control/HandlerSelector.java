package dev.hookstile.processing.control;

import dev.hookstile.api.HandlesWebhooks;

import java.util.List;

/** The events one handler receives, from its {@link HandlesWebhooks} annotation. */
record HandlerSelector(List<String> providers, List<String> sources, List<String> types) {

    static HandlerSelector of(HandlesWebhooks annotation) {
        if (annotation == null) {
            return new HandlerSelector(List.of(), List.of(), List.of());
        }
        return new HandlerSelector(List.of(annotation.providers()), List.of(annotation.sources()),
                List.of(annotation.types()));
    }

    boolean matches(String source, String provider, String type) {
        return (providers.isEmpty() || providers.contains(provider))
                && (sources.isEmpty() || sources.contains(source))
                && (types.isEmpty() || types.stream().anyMatch(pattern -> typeMatches(pattern, type)));
    }

    private static boolean typeMatches(String pattern, String type) {
        return pattern.endsWith("*")
                ? type.startsWith(pattern.substring(0, pattern.length() - 1))
                : pattern.equals(type);
    }

    @Override
    public String toString() {
        return "(providers=" + (providers.isEmpty() ? "any" : providers)
                + ", sources=" + (sources.isEmpty() ? "any" : sources)
                + ", types=" + (types.isEmpty() ? "any" : types) + ")";
    }
}
