package dev.hookstile.api;

/**
 * Text that a sender or an operator controls (an event id, a source name, a handler's failure), made safe to put
 * where a reader takes it for Hookstile's own: one rule of what may not stand as it is, two ways to treat it.
 * <ul>
 *     <li>{@link #escaped}: for a log message, which must keep every character, recoverably;</li>
 *     <li>{@link #shown}: for a person, in a problem's detail or a start's refusal: replaced and cut short.</li>
 * </ul>
 * What may not stand as it is: control characters (C0, DEL, C1), which could end a line and start a forged one or
 * recolour a terminal; the Unicode line and paragraph separators; and the bidirectional overrides and isolates, which
 * reorder what a terminal or a page shows.
 *
 * <p>In the handler API so that Hookstile, {@link WebhookEvent#toString()} and a handler's own log lines follow the
 * same rule.
 */
public final class Text {

    /**
     * The most characters of a text Hookstile stores in a column of its own ({@code VARCHAR(255)}): an event id, a
     * type, an order key, a search key's pointer and value, a replay's idempotency key, an effect's content type.
     * Every check of such a text refers to this one.
     */
    public static final int MAX_STORED = 255;

    private Text() {
    }

    /** Whether this character may not stand as it is. */
    public static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }

    /**
     * For a log message: each unsafe character, a backslash and the braces (which a formatter's
     * {@code MessageFormat} reads as placeholders) as {@code \}{@code uXXXX}; a backslash doubled. What is left prints
     * as it is, on the line it belongs to.
     */
    public static String escaped(String text) {
        return text == null ? "null" : escape(text, false);
    }

    /** {@link #escaped} in double quotes, with {@code "} escaped too, so the text cannot close the quotes. */
    public static String quoted(String text) {
        return text == null ? "null" : "\"" + escape(text, true) + "\"";
    }

    /**
     * For a person to read: each unsafe character a {@code ?}, and at most {@code max} characters of it, followed by
     * {@code ...} when it was longer.
     */
    public static String shown(String text, int max) {
        if (text == null) {
            return "null";
        }
        String cut = text.length() > max ? text.substring(0, max) : text;
        var out = new StringBuilder(cut.length() + 3);
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            out.append(unsafe(c) ? '?' : c);
        }
        return text.length() > max ? out.append("...").toString() : out.toString();
    }

    /** Whether the text holds no control character (C0 or DEL): what ingest lets into an id, a type or a name. */
    public static boolean withoutControls(String text) {
        return text.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }

    private static String escape(String text, boolean quote) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replacement = c == '\\' ? "\\\\" : quote && c == '"' ? "\\\""
                    : unsafe(c) || c == '{' || c == '}' ? String.format("\\u%04x", (int) c) : null;
            if (replacement != null && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
