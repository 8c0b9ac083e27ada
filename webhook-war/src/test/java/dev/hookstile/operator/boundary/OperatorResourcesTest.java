package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import jakarta.annotation.Priority;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.ext.Provider;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every operator resource is guarded inside JAX-RS, not only by the servlet filter on {@code /api/*}: a resource
 * added later without {@link OperatorOnly} fails here. The one exception is the console's sign-in, whose
 * {@code POST} and {@code GET} ask the gate themselves.
 */
class OperatorResourcesTest {

    @Test
    void everyResourceOfTheOperatorApiIsOperatorOnly() throws IOException, URISyntaxException, ClassNotFoundException {
        List<Class<?>> resources = resources();

        assertFalse(resources.isEmpty());
        for (Class<?> resource : resources) {
            assertTrue(resource.getAnnotation(Path.class).value().startsWith("api/"), resource.getName());
            if (resource == SessionResource.class) {
                continue;
            }
            assertTrue(resource.isAnnotationPresent(OperatorOnly.class), resource + " lacks @OperatorOnly");
        }
    }

    @Test
    void theSignInAnswersWithoutCredentialsOnlyToPostAndGetAndSignOutIsOperatorOnly() {
        assertEquals("api/session", SessionResource.class.getAnnotation(Path.class).value());
        assertEquals("/" + SessionResource.class.getAnnotation(Path.class).value(), OperatorGate.SESSION_PATH);
        List<String> open = new java.util.ArrayList<>();
        for (Method method : SessionResource.class.getDeclaredMethods()) {
            String verb = Stream.of(method.getAnnotations()).map(a -> a.annotationType().getAnnotation(HttpMethod.class))
                    .filter(java.util.Objects::nonNull).map(HttpMethod::value).findFirst().orElse(null);
            if (verb == null) {
                continue;
            }
            assertFalse(method.isAnnotationPresent(Path.class), "no sub-resource: the servlet filter opens one path");
            if (!method.isAnnotationPresent(OperatorOnly.class)) {
                open.add(verb);
            }
        }
        assertEquals(List.of("GET", "POST"), open.stream().sorted().toList());
    }

    @Test
    void theFilterIsBoundByNameAndRunsAsAuthentication() {
        assertTrue(OperatorOnly.class.isAnnotationPresent(NameBinding.class));
        assertTrue(OperatorOnlyFilter.class.isAnnotationPresent(OperatorOnly.class));
        assertTrue(OperatorOnlyFilter.class.isAnnotationPresent(Provider.class));
        assertEquals(Priorities.AUTHENTICATION, OperatorOnlyFilter.class.getAnnotation(Priority.class).value());
    }

    private static List<Class<?>> resources() throws IOException, URISyntaxException, ClassNotFoundException {
        var directory = java.nio.file.Path.of(OperatorOnly.class.getResource("OperatorOnly.class").toURI()).getParent();
        List<String> names;
        try (Stream<java.nio.file.Path> files = Files.list(directory)) {
            names = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class") && !n.contains("$"))
                    .map(n -> n.substring(0, n.length() - ".class".length())).sorted().toList();
        }
        List<Class<?>> resources = new java.util.ArrayList<>();
        for (String name : names) {
            Class<?> type = Class.forName(OperatorOnly.class.getPackageName() + "." + name);
            if (type.isAnnotationPresent(Path.class) || name.endsWith("Resource")) {
                resources.add(type);
            }
        }
        return resources;
    }
}
