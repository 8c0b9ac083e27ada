package dev.hookstile.bench.plain;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS at the context root, so the paths are those of Hookstile: {@code /webhooks/{source}}. */
@ApplicationPath("")
public class PlainApplication extends Application {
}
