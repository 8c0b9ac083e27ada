package dev.hookstile.platform.boundary;

import jakarta.enterprise.concurrent.ContextService;

import java.lang.reflect.Proxy;

/** Context services for tests, which run outside a container. */
public final class ContextServices {

    private ContextServices() {
    }

    /** A context service with no context to carry: its contextual proxies are the objects themselves. */
    public static ContextService none() {
        return (ContextService) Proxy.newProxyInstance(ContextServices.class.getClassLoader(),
                new Class<?>[] {ContextService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("createContextualProxy") && args.length >= 2) {
                        return args[0];
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
