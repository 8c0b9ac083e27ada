package dev.hookstile.source.control;

import dev.hookstile.source.Delivery;
import dev.hookstile.source.RejectedDelivery;
import dev.hookstile.source.Rejection;
import dev.hookstile.source.Source;

import java.util.List;
import java.util.Locale;

/** The URL {@link Twilio} signed, and the forms of it Twilio may have signed. */
final class TwilioUrls {

    private TwilioUrls() {
    }

    /** The URL Twilio signed: the configured public one with the request's query string, else the request's. */
    static String signed(Delivery delivery, Source source) throws RejectedDelivery {
        String seen = delivery.url();
        String publicUrl = source.setting(Twilio.PUBLIC_URL).orElse(null);
        if (publicUrl == null) {
            // Never reached for a configured source (checkSettings requires it); never the request's own URL.
            throw new RejectedDelivery(Rejection.INVALID_SIGNATURE,
                    "the signed URL is unknown: the source has no " + Twilio.PUBLIC_URL);
        }
        int query = seen == null ? -1 : seen.indexOf('?');
        if (query < 0) {
            return publicUrl;
        }
        int fragment = seen.indexOf('#', query);
        return publicUrl + (fragment < 0 ? seen.substring(query) : seen.substring(query, fragment));
    }

    /** The value of a query parameter of the URL, as it stands there; {@code null} without one. */
    static String queryValue(String url, String name) {
        int query = url.indexOf('?');
        if (query < 0) {
            return null;
        }
        for (String pair : url.substring(query + 1).split("&")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        return null;
    }

    /**
     * The URL as given, and with its port removed or the scheme's default port added: Twilio's helper libraries
     * accept both, because Twilio itself signs some requests with the port and some without.
     */
    static List<String> portVariants(String url) {
        int authorityStart = url.indexOf("://");
        if (authorityStart < 0) {
            return List.of(url);
        }
        authorityStart += 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        String authority = url.substring(authorityStart, authorityEnd);
        int hostStart = authority.lastIndexOf('@') + 1;
        int colon = authority.lastIndexOf(':');
        boolean hasPort = colon >= hostStart && colon > authority.lastIndexOf(']');
        String before = url.substring(0, authorityStart);
        String after = url.substring(authorityEnd);
        if (hasPort) {
            return List.of(url, before + authority.substring(0, colon) + after);
        }
        String scheme = url.substring(0, authorityStart - 3).toLowerCase(Locale.ROOT);
        String port = scheme.equals("https") ? ":443" : scheme.equals("http") ? ":80" : null;
        return port == null ? List.of(url) : List.of(url, before + authority + port + after);
    }
}
