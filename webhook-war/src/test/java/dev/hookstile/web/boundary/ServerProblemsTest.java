package dev.hookstile.web.boundary;

import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which failures are the database's (503); the answers themselves are checked on the server by DeadLetterIT. */
class ServerProblemsTest {

    @Test
    void aFailedQueryIsTheDatabase() {
        assertTrue(ServerProblems.fromTheDatabase(new PersistenceException("Error in allocating a connection")));
    }

    @Test
    void anSqlExceptionDeepInTheChainIsTheDatabase() {
        assertTrue(ServerProblems.fromTheDatabase(
                new IllegalStateException("wrapped", new RuntimeException(new SQLException("refused", "08001")))));
    }

    @Test
    void anyOtherFailureIsNot() {
        assertFalse(ServerProblems.fromTheDatabase(new NullPointerException("a bug")));
    }

    @Test
    void aCauseChainThatLoopsEnds() {
        var first = new IllegalStateException("first");
        var second = new IllegalArgumentException("second", first);
        first.initCause(second);

        assertFalse(ServerProblems.fromTheDatabase(first));
    }
}
