package dev.hookstile.web.boundary;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS at the root: {@code /webhooks/{source}} for senders, later {@code /api} for operators. */
@ApplicationPath("/")
public class HookstileApplication extends Application {
}
