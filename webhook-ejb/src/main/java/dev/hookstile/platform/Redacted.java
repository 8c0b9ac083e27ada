package dev.hookstile.platform;

import java.util.regex.Pattern;

/**
 * URLs (or texts holding URLs) as they may be shown in a log line or an API answer, in two strengths.
 *
 * <p>{@link #url}: user information ({@code user:password@}), query strings and fragments, and {@code password=}-like
 * parameters outside a query replaced by {@code ***}. Scheme, host, port and path stay, so an operator still sees
 * where it points: for broker and database URLs, whose path names a database, never a secret. Query strings go whole:
 * broker, database and destination URLs carry credentials and tokens there ({@code ?password=}, {@code ?jms.password=},
 * {@code ?token=}, a signed URL's signature), and a name list that is safe today would miss tomorrow's. A composite
 * broker URL ({@code failover:(tcp://a?x=1,tcp://b)?y=2}) loses each inner and outer query.
 *
 * <p>{@link #endpoint}: only {@code scheme://host:port}, for the URLs Hookstile sends to (destinations, the
 * notification endpoint, handlers' effects). Their path is often the secret itself: a Slack or Teams incoming
 * webhook ({@code https://hooks.slack.com/services/T000/B000/XXXX}) or a tokenised receiver carries it there, and
 * no rule can tell a token segment from a name.
 *
 * <p>{@link #secretHeader}: the one rule for the request headers an operator never sees the value of, wherever they
 * are shown (a refused delivery's example, an event's retained headers in the operator API); their value reads
 * {@link #HEADER_VALUE}. A name list cannot keep up with every sender, so any name that looks like it carries a
 * signature, a credential or a session counts.
 */
public final class Redacted {

    /** What a withheld header value reads: the same marker the ingest stores in place of a signature. */
    public static final String HEADER_VALUE = "[redacted]";

    static final String HIDDEN = "***";

    // Every provider's signature header (x-hub-signature-256, stripe-signature, x-shopify-hmac-sha256,
    // webhook-signature, ...), authorization, cookies, API keys, tokens, passwords and sessions.
    private static final Pattern SECRET_HEADER = Pattern.compile(
            "(?i).*(signature|hmac|auth|token|secret|cookie|key|passw|credential|session).*");

    // Between "://" and the next '@' before the host: no '/', '?', '#', ',', '(', ')' or white space on the way.
    private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/?#@\\s,()]*@");
    // To the end of the URL: a composite URL's ',' or ')' ends an inner one.
    private static final Pattern QUERY_OR_FRAGMENT = Pattern.compile("([?#])[^\\s,()]+");
    // JDBC and other drivers also take "key=value" options after ';' (jdbc:sqlserver://h;password=x).
    private static final Pattern SECRET_OPTION = Pattern.compile(
            "(?i)((?:password|passwd|pwd|secret|token|credentials?|api[_-]?key|access[_-]?key)\\s*[=:]\\s*)[^;&\\s,()]+");
    // A URL's scheme and host[:port] kept; its user information, and everything after the authority (path, ';'
    // options, query, fragment) to the URL's end, dropped.
    private static final Pattern AFTER_AUTHORITY = Pattern.compile(
            "([A-Za-z][A-Za-z0-9+.-]*://)(?:[^/?#@\\s,()]*@)?([^/?#@;\\s,()]*)[^\\s,()]*");

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

    /** Whether a header of this name is shown as {@link #HEADER_VALUE}, whatever it carries. */
    public static boolean secretHeader(String name) {
        return name != null && SECRET_HEADER.matcher(name).matches();
    }

    /**
     * A URL Hookstile sends to, as {@code scheme://host:port} ({@code :port} as the URL gives it): every URL in the
     * text cut to that, and what is left hidden as by {@link #url} (an error message's {@code password=}). For a
     * single URL and for a text holding some alike (a failure's message); {@code null} stays {@code null}.
     */
    public static String endpoint(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        return url(AFTER_AUTHORITY.matcher(text).replaceAll("$1$2"));
    }
}
