package dev.hookstile.platform;

import java.sql.SQLException;

/**
 * A JDBC statement failed. Unchecked, so that it rolls the transaction back like any handler failure; the
 * {@link SQLException} stays its cause, which the failure classifier reads (SQL state 08, 40, ... transient).
 */
public final class StatementFailure extends RuntimeException {

    public StatementFailure(SQLException cause) {
        super(cause.getMessage(), cause);
    }
}
