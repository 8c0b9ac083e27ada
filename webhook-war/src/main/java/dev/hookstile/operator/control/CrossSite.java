package dev.hookstile.operator.control;

/**
 * What tells a request the operator's browser sent for another site's page from one of the console's own: any page
 * can make the browser send a safe method, a form or a {@code text/plain} post (no CORS preflight, which this API
 * never grants), with the cookie attached; it cannot send JSON, nor set {@code Host} or {@code Origin}.
 */
final class CrossSite {

    private CrossSite() {
    }

    /** {@code application/json}, with parameters or without, in any case. */
    static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return type.equalsIgnoreCase("application/json");
    }

    /** A method that changes nothing, which a browser sends from another site's page without a CORS preflight. */
    static boolean safe(String method) {
        return "GET".equals(method) || "HEAD".equals(method) || "OPTIONS".equals(method);
    }

    /**
     * Whether {@code origin} ({@code scheme://host[:port]}) names the host the request was sent to ({@code Host},
     * or {@code X-Forwarded-Host} from a proxy; a cross-site page can set neither). The scheme is not compared: a
     * proxy ending TLS turns https into http, and a page on the same host under the other scheme is the same site.
     */
    static boolean sameOrigin(String origin, String host, String forwardedHost) {
        int colon = origin.indexOf("://");
        if (colon <= 0) {
            return false; // "null" (sandboxed frames, some redirects) and anything else malformed
        }
        String authority = authority(origin.substring(colon + 3));
        if (authority.isEmpty() || authority.contains("/")) {
            return false;
        }
        return authority.equals(authority(host)) || (forwardedHost != null
                && authority.equals(authority(forwardedHost.split(",", 2)[0])));
    }

    /** Host and port in lower case, without a default port (80, 443). */
    private static String authority(String value) {
        if (value == null) {
            return "";
        }
        String authority = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (authority.endsWith(":80")) {
            return authority.substring(0, authority.length() - 3);
        }
        if (authority.endsWith(":443")) {
            return authority.substring(0, authority.length() - 4);
        }
        return authority;
    }
}
