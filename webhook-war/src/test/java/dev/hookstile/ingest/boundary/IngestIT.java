package dev.hookstile.ingest.boundary;

import dev.hookstile.it.DeployedHookstile;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.lang.annotation.Annotation;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service around ingest: health endpoints that report ready and the published OpenAPI contract. Refusals are
 * in {@link HostileInputIT}, each provider end to end in {@link ProvidersIT}.
 */
class IngestIT extends DeployedHookstile {

    @Test
    void readinessAndLivenessAreUp() {
        var health = webhooks.server();

        HttpResponse<String> ready = health.get("health/ready");
        HttpResponse<String> live = health.get("health/live");

        assertEquals(200, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"broker\""), ready.body());
        assertTrue(ready.body().contains("\"database\""), ready.body());
        assertEquals(200, live.statusCode(), live.body());
    }

    /**
     * The contract served at {@code /openapi} (the hand-written {@code META-INF/openapi.yaml}; scanning is off) names
     * exactly the operations the JAX-RS resources have: none missing, none that no resource answers.
     */
    @Test
    void theServedOpenApiDocumentNamesExactlyTheResourcesOperations() {
        HttpResponse<String> openapi = webhooks.server().get("openapi?format=JSON");
        assertEquals(200, openapi.statusCode(), openapi.body());
        JsonObject paths;
        try (JsonReader reader = Json.createReader(new StringReader(openapi.body()))) {
            paths = reader.readObject().getJsonObject("paths");
        }
        var documented = new TreeSet<String>();
        var withoutId = new TreeSet<String>();
        paths.forEach((path, item) -> item.asJsonObject().forEach((method, operation) -> {
            if (HTTP_METHODS.contains(method)) {
                documented.add(method.toUpperCase(Locale.ROOT) + " " + path);
                if (!operation.asJsonObject().containsKey("operationId")) {
                    withoutId.add(method.toUpperCase(Locale.ROOT) + " " + path);
                }
            }
        }));

        assertEquals(resourceOperations(), documented);
        assertEquals(Set.of(), withoutId, "operations without an operationId");
    }

    private static final Set<String> HTTP_METHODS = Set.of("get", "post", "put", "delete", "patch", "head", "options");

    /** Every resource method of the application, as METHOD /path with the class's and the method's @Path. */
    private static Set<String> resourceOperations() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.hookstile");
        var operations = new TreeSet<String>();
        for (JavaClass resource : classes) {
            if (!resource.isAnnotatedWith(Path.class)) {
                continue;
            }
            String base = resource.getAnnotationOfType(Path.class).value();
            for (JavaMethod method : resource.getMethods()) {
                for (Class<? extends Annotation> verb : List.of(GET.class, POST.class, PUT.class, DELETE.class,
                        PATCH.class, HEAD.class, OPTIONS.class)) {
                    if (method.isAnnotatedWith(verb)) {
                        String sub = method.isAnnotatedWith(Path.class)
                                ? method.getAnnotationOfType(Path.class).value() : "";
                        operations.add(verb.getSimpleName() + " " + join(base, sub));
                    }
                }
            }
        }
        assertTrue(operations.contains("POST /webhooks/{source}"), operations.toString());
        return operations;
    }

    private static String join(String base, String sub) {
        String path = ("/" + base + "/" + sub).replaceAll("/+", "/");
        // A regular expression in a template ({id: [0-9]+}) is documented as its name.
        path = path.replaceAll("\\{\\s*([A-Za-z0-9_]+)\\s*:[^}]*}", "{$1}");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
