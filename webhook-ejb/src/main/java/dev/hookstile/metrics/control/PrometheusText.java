package dev.hookstile.metrics.control;

import java.io.IOException;
import java.util.List;

/**
 * The Prometheus text exposition format, version 0.0.4: what {@code promtool check metrics} and every Prometheus
 * server read. Label values are escaped as the format asks (backslash, double quote, line feed); names are checked
 * where families are registered, not here.
 */
public final class PrometheusText {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    /** The {@code # HELP} and {@code # TYPE} lines of a family. */
    public static void header(Appendable out, String name, String help, String type) throws IOException {
        out.append("# HELP ").append(name).append(' ');
        escapeHelp(out, help);
        out.append("\n# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** One sample line: {@code name{a="x",b="y"} value}, with an extra label (such as {@code le}) when given. */
    public static void sample(Appendable out, String name, List<String> labelNames, List<String> labelValues,
                              String extraName, String extraValue, double value) throws IOException {
        out.append(name);
        if (!labelNames.isEmpty() || extraName != null) {
            out.append('{');
            for (int i = 0; i < labelNames.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labelNames.get(i)).append("=\"");
                escapeLabel(out, labelValues.get(i));
                out.append('"');
            }
            if (extraName != null) {
                if (!labelNames.isEmpty()) {
                    out.append(',');
                }
                out.append(extraName).append("=\"").append(extraValue).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
    }

    /** A sample value or bound as the format writes it: integers without a fraction, {@code +Inf}, {@code NaN}. */
    public static String number(double value) {
        if (value == Double.POSITIVE_INFINITY) {
            return "+Inf";
        }
        if (value == Double.NEGATIVE_INFINITY) {
            return "-Inf";
        }
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    /** Whether a name is a valid metric or label name. */
    public static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':';
            if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    private static void escapeLabel(Appendable out, String value) throws IOException {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    private static void escapeHelp(Appendable out, String help) throws IOException {
        for (int i = 0; i < help.length(); i++) {
            char c = help.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }
}
