package dev.hookstile.platform;

import java.util.regex.Pattern;

/**
 * A URL (or a text holding URLs) as it may be shown in a log line or an API answer: user information
 * ({@code user:password@}), query strings and fragments, and {@code password=}-like parameters outside a query
 * replaced by {@code ***}. Scheme, host, port and path stay, so an operator still sees where it points.
 *
 * <p>Query strings go whole: broker, database and destination URLs carry credentials and tokens there
 * ({@code ?password=}, {@code ?jms.password=}, {@code ?token=}, a signed URL's signature), and a name list that is
 * safe today would miss tomorrow's. A composite broker URL ({@code failover:(tcp://a?x=1,tcp://b)?y=2}) loses each
 * inner and outer query.
 */
public final class Redacted {

    static final String HIDDEN = "***";

    // Between "://" and the next '@' before the host: no '/', '?', '#', ',', '(', ')' or white space on the way.
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/?#@\\s,()]*@");
    // To the end of the URL: a composite URL's ',' or ')' ends an inner one.
    private static final Pattern QUERY_OR_FRAGMENT = Pattern.compile("([?#])[^\\s,()]+");
    // JDBC and other drivers also take "key=value" options after ';' (jdbc:sqlserver://h;password=x).
    private static final Pattern SECRET_OPTION = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|credentials?|api[_-]?key|access[_-]?key)\\s*[=:]\\s*)[^;&\\s,()]+");

    private Redacted() {
    }

    /** The text with every credential and query string hidden; {@code null} stays {@code null}. */
    public static String url(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String hidden = USER_INFO.matcher(text).replaceAll(HIDDEN + "@");
        hidden = QUERY_OR_FRAGMENT.matcher(hidden).replaceAll("$1" + HIDDEN);
        return SECRET_OPTION.matcher(hidden).replaceAll("$1" + HIDDEN);
    }
}
