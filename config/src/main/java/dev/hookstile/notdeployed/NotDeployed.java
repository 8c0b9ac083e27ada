package dev.hookstile.notdeployed;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The one check of {@code hookstile-not-deployed.war}, which {@code config/payara-server.sh deploy} deploys when
 * Hookstile's deployment failed: Payara Server's {@code /health/ready} belongs to the server and answers {@code UP}
 * with no checks when no application is deployed, so a load balancer would send webhooks to an instance that answers
 * them {@code 404}. With this it answers {@code 503} {@code DOWN} until a deployment succeeds and the script removes
 * the placeholder.
 */
@Readiness
public class NotDeployed implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("hookstile").down()
                .withData("deployed", false)
                .withData("reason", "the last config/payara-server.sh deploy failed: see its output and server.log")
                .build();
    }
}
