package dev.hookstile.start.boundary;

import dev.hookstile.start.control.InvalidSettings;
import dev.hookstile.start.control.SettingsProblems;
import dev.hookstile.start.control.WantedSetting;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterBeanDiscovery;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.enterprise.inject.spi.ProcessInjectionPoint;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.lang.reflect.Member;
import java.util.List;
import java.util.logging.Logger;

/**
 * Checks every setting before the first bean is created, and refuses the deployment with all the problems it found,
 * each a line naming the setting ({@code HOOKSTILE_SOURCES_PAY_PROVIDER (hookstile.sources.pay.provider): unknown
 * provider 'strype' (github, stripe, ...)}). Without it the first bad setting surfaced as the container's
 * {@code WELD-000049} about whichever bean happened to read it first, among hundreds of lines.
 *
 * <p>The problems are logged on {@value #LOGGER}, which the launcher shows on the console however quiet it is, and
 * are the deployment error's message, which {@code asadmin deploy} prints on Payara Server.
 */
public class SettingsValidation implements Extension {

    /** The logger of what an operator must see at start: the launcher's console shows its lines whatever the level. */
    public static final String LOGGER = "dev.hookstile.start";
    private static final Logger START = Logger.getLogger(LOGGER);

    private SettingsProblems problems;

    /** Each component's own check, before the first injection point is seen. */
    void components(@Observes BeforeBeanDiscovery event) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        problems = new SettingsProblems(ConfigProvider.getConfig(loader));
        problems.checkComponents(loader).forEach(START::severe);
    }

    /**
     * Every {@code @ConfigProperty}, as it is seen: said at once, since the container's own check of the same point
     * may end the deployment before {@link #refuse} runs.
     */
    void wanted(@Observes ProcessInjectionPoint<?, ?> event) {
        InjectionPoint point = event.getInjectionPoint();
        for (var qualifier : point.getQualifiers()) {
            if (qualifier instanceof ConfigProperty property) {
                Member member = point.getMember();
                String where = member == null ? "?" : member.getDeclaringClass().getName() + "." + member.getName();
                String name = property.name().isEmpty() ? where : property.name();
                problems.check(new WantedSetting(name, point.getType(), property.defaultValue(), where))
                        .ifPresent(START::severe);
            }
        }
    }

    void refuse(@Observes AfterBeanDiscovery event) {
        List<String> all = problems.all();
        problems = null;
        if (!all.isEmpty()) {
            event.addDefinitionError(new InvalidSettings(all));
        }
    }
}
