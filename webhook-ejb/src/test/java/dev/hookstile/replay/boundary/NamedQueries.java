package dev.hookstile.replay.boundary;

import jakarta.persistence.NamedNativeQuery;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An entity's named native queries, run as they are through plain JDBC: the statements the code runs, not copies. */
final class NamedQueries {

    private static final Pattern NUMBERED = Pattern.compile("\\?(\\d+)");

    private NamedQueries() {
    }

    /** The SQL of the named native query {@code name} declared on {@code entity}. */
    static String of(Class<?> entity, String name) {
        for (NamedNativeQuery query : entity.getAnnotationsByType(NamedNativeQuery.class)) {
            if (query.name().equals(name)) {
                return query.query();
            }
        }
        throw new IllegalArgumentException(entity.getSimpleName() + " declares no query " + name);
    }

    /** SQL with numbered parameters ({@code ?1}) as JDBC takes it, and the parameter each placeholder stands for. */
    record Numbered(String sql, List<Integer> order) {
    }

    static Numbered numbered(String sql) {
        var order = new ArrayList<Integer>();
        Matcher matcher = NUMBERED.matcher(sql);
        var plain = new StringBuilder();
        while (matcher.find()) {
            order.add(Integer.parseInt(matcher.group(1)));
            matcher.appendReplacement(plain, "?");
        }
        matcher.appendTail(plain);
        return new Numbered(plain.toString(), order);
    }

    /** Runs an update with numbered parameters; {@code parameters[0]} is {@code ?1}. */
    static int update(Connection connection, String sql, Object... parameters) throws SQLException {
        Numbered numbered = numbered(sql);
        try (PreparedStatement update = connection.prepareStatement(numbered.sql())) {
            for (int i = 0; i < numbered.order().size(); i++) {
                update.setObject(i + 1, parameters[numbered.order().get(i) - 1]);
            }
            return update.executeUpdate();
        }
    }
}
