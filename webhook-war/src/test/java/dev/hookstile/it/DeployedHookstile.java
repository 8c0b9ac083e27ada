package dev.hookstile.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URL;

/**
 * What every Arquillian integration test shares: Hookstile with the test handler, deployed on Payara Micro with the
 * broker and the database as {@link ItEnvironment} chose them, and a signing sender pointed at it. A test class
 * extends it and sets up its own data in each test.
 */
@ExtendWith(ArquillianExtension.class)
public abstract class DeployedHookstile {

    @Deployment(testable = false)
    public static WebArchive deployment() {
        return Deployments.hookstileWithTestHandler();
    }

    @ArquillianResource
    protected URL base;

    /** Signs and sends deliveries, calls the operator API and reads what the server recorded. */
    protected Webhooks webhooks;

    @BeforeEach
    void sender() {
        webhooks = Webhooks.at(base);
    }
}
