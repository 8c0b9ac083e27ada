package dev.hookstile.web.boundary;

import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every failure of ours that no resource answered itself, as problem details instead of the container's HTML page.
 * A database that fails a query (down, unreachable, timing out) is {@code 503 database-unavailable} with
 * {@code Retry-After}: the caller may retry, and webhooks are still accepted meanwhile. Anything else is
 * {@code 500 internal-error}, its details in the log only. {@link WebApplicationProblems} keeps the JAX-RS
 * runtime's own errors (a more specific type wins).
 */
@Provider
public class ServerProblems implements ExceptionMapper<RuntimeException> {

    private static final Logger LOG = Logger.getLogger(ServerProblems.class.getName());

    @Context
    UriInfo uri;

    @Override
    public Response toResponse(RuntimeException exception) {
        String path = uri == null ? null : "/" + uri.getPath();
        if (fromTheDatabase(exception)) {
            // The driver's message names hosts and users: the log has it, the answer does not.
            LOG.log(Level.WARNING, exception, () -> "The database failed a query of " + path + "; answered 503");
            return Problems.of(503, "database-unavailable", "Service unavailable",
                            "the database did not answer this query; retry later (webhooks are still accepted)", path)
                    .header("Retry-After", Problems.RETRY_AFTER_SECONDS)
                    .build();
        }
        LOG.log(Level.SEVERE, exception, () -> "Unexpected failure answering " + path);
        return Problems.of(500, "internal-error", "Internal server error",
                "the server failed to answer this request; the log has the details", path).build();
    }

    /** The persistence provider's own exception types are not JPA's, but an SQL exception or a JPA one is in the chain. */
    static boolean fromTheDatabase(Throwable exception) {
        int depth = 0;
        // Bounded: a cause chain can be made to loop (A caused by B caused by A).
        for (Throwable t = exception; t != null && depth++ < 32; t = t.getCause()) {
            if (t instanceof PersistenceException || t instanceof SQLException
                    || t.getClass().getName().startsWith("org.eclipse.persistence.exceptions.")) {
                return true;
            }
        }
        return false;
    }
}
