package dev.hookstile.source.boundary;

import dev.hookstile.source.Provider;

import dev.hookstile.source.control.Signers;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The providers Hookstile knows, by the name a source configuration uses. */
public final class Providers {

    private static final Map<String, Provider> BY_NAME = Signers.all().stream()
            .collect(Collectors.toUnmodifiableMap(Provider::name, Function.identity()));

    private Providers() {
    }

    public static Optional<Provider> byName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    public static List<String> names() {
        return BY_NAME.keySet().stream().sorted().toList();
    }
}
