package dev.hookstile.monitoring;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the repository's Grafana dashboard ({@code monitoring/grafana/hookstile.json}) and Prometheus alert rules
 * ({@code monitoring/prometheus/hookstile-alerts.yml}) query, so tests can hold them to the metrics Hookstile
 * serves: {@link #metricNames()} for a test that finds every one of them in a real scrape, and
 * {@link #checkMetrics(String)} to lint a scrape with {@code promtool check metrics}.
 *
 * <p>The files are found from the module directory Maven runs tests in ({@code ../monitoring}), or from the
 * repository's root ({@code monitoring}).
 */
public final class MonitoringQueries {

    /** One query of the dashboard: where it is (a panel's title, or a template variable), and its legend. */
    public record Query(String where, String expression, String legend) {
    }

    /** One rule of the alert rules file: its name, its expression and all its lines (labels, annotations). */
    public record Rule(String name, String expression, String text) {
    }

    private static final Pattern RULE = Pattern.compile("^\\s*- (?:alert|record):\\s*(\\S+)\\s*$");
    private static final Pattern EXPR = Pattern.compile("^(\\s*)expr:\\s*(.*)$");
    private static final Pattern BLOCK_INDICATOR = Pattern.compile("[|>][-+0-9]*");
    private static final Pattern LABEL_VALUES = Pattern.compile(
            "label_values\\s*\\(\\s*([^,()]*?(?:\\{[^}]*})?)\\s*(,\\s*[A-Za-z_][A-Za-z0-9_]*\\s*)?\\)");
    private static final Pattern QUERY_RESULT = Pattern.compile("query_result\\s*\\(");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![A-Za-z0-9_:.$])[A-Za-z_:][A-Za-z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "atan2", "inf", "nan");

    private MonitoringQueries() {
    }

    public static Path directory() {
        for (Path candidate : List.of(Path.of("..", "monitoring"), Path.of("monitoring"))) {
            if (Files.isDirectory(candidate.resolve("prometheus"))) {
                return candidate.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("No monitoring/ directory beside or below " + Path.of("").toAbsolutePath());
    }

    public static Path dashboardFile() {
        return directory().resolve("grafana/hookstile.json");
    }

    public static Path alertRulesFile() {
        return directory().resolve("prometheus/hookstile-alerts.yml");
    }

    /** The alert rules' unit tests for {@code promtool test rules}: every {@code prometheus/*-test.yml}. */
    public static List<Path> alertTestFiles() {
        try (Stream<Path> files = Files.list(directory().resolve("prometheus"))) {
            return files.filter(file -> file.getFileName().toString().endsWith("-test.yml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every series name the dashboard and the alert rules query, exactly as queried: a histogram appears as the
     * series read ({@code hookstile_ingest_ack_seconds_bucket}, {@code ..._count}), a counter with its
     * {@code _total}.
     */
    public static Set<String> metricNames() {
        Set<String> names = new TreeSet<>();
        dashboardQueries().forEach(query -> names.addAll(metricNames(query.expression())));
        alertRules().forEach(rule -> names.addAll(metricNames(rule.expression())));
        return names;
    }

    /**
     * The series names one PromQL expression (or Grafana variable query) selects: the identifiers left once string
     * literals, label matchers, ranges, grouping clauses, functions and keywords are taken out.
     */
    public static Set<String> metricNames(String expression) {
        String plain = withoutStringsAndComments(expression);
        // label_values(metric, label) reads the metric; label_values(label) reads no metric at all.
        plain = LABEL_VALUES.matcher(plain).replaceAll(match -> Matcher.quoteReplacement(
                match.group(2) != null ? match.group(1) : ""));
        plain = QUERY_RESULT.matcher(plain).replaceAll("(");
        plain = MATCHERS.matcher(plain).replaceAll(" ");
        plain = RANGES.matcher(plain).replaceAll(" ");
        plain = GROUPING.matcher(plain).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher identifier = IDENTIFIER.matcher(plain);
        while (identifier.find()) {
            String name = identifier.group();
            boolean call = plain.substring(identifier.end()).stripLeading().startsWith("(");
            if (!call && !KEYWORDS.contains(name.toLowerCase())) {
                names.add(name);
            }
        }
        return names;
    }

    /** Every query of the dashboard: its panels' targets (rows' panels too) and its template variables. */
    public static List<Query> dashboardQueries() {
        JsonObject dashboard = dashboard();
        List<Query> queries = new ArrayList<>();
        collectTargets(dashboard.getJsonArray("panels"), queries);
        JsonObject templating = dashboard.getJsonObject("templating");
        if (templating != null) {
            for (JsonObject variable : templating.getJsonArray("list").getValuesAs(JsonObject.class)) {
                if ("query".equals(variable.getString("type", ""))) {
                    JsonValue query = variable.get("query");
                    String text = query instanceof JsonString string ? string.getString()
                            : query instanceof JsonObject object ? object.getString("query", "")
                            : variable.getString("definition", "");
                    queries.add(new Query("variable " + variable.getString("name"), text, ""));
                }
            }
        }
        return queries;
    }

    public static JsonObject dashboard() {
        try (JsonReader reader = Json.createReader(Files.newBufferedReader(dashboardFile()))) {
            return reader.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void collectTargets(JsonArray panels, List<Query> queries) {
        if (panels == null) {
            return;
        }
        for (JsonObject panel : panels.getValuesAs(JsonObject.class)) {
            JsonArray targets = panel.getJsonArray("targets");
            if (targets != null) {
                for (JsonObject target : targets.getValuesAs(JsonObject.class)) {
                    queries.add(new Query(panel.getString("title", "panel " + panel.get("id")),
                            target.getString("expr", ""), target.getString("legendFormat", "")));
                }
            }
            collectTargets(panel.getJsonArray("panels"), queries);
        }
    }

    /**
     * The rules of the alert rules file, read line by line: a rule starts at {@code - alert:} (or {@code - record:});
     * its {@code expr} is the rest of that line with every following line indented deeper (a block scalar, a plain
     * scalar continued, or a quoted one).
     */
    public static List<Rule> alertRules() {
        List<String> lines;
        try {
            lines = Files.readAllLines(alertRulesFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Rule> rules = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= lines.size(); i++) {
            if (i == lines.size() || RULE.matcher(lines.get(i)).matches()) {
                if (start >= 0) {
                    rules.add(rule(lines.subList(start, i)));
                }
                start = i;
            }
        }
        return rules;
    }

    private static Rule rule(List<String> lines) {
        Matcher name = RULE.matcher(lines.get(0));
        name.matches();
        String expression = "";
        for (int i = 1; i < lines.size(); i++) {
            Matcher expr = EXPR.matcher(lines.get(i));
            if (expr.matches()) {
                int indent = expr.group(1).length();
                String first = expr.group(2).strip();
                List<String> value = new ArrayList<>();
                if (!BLOCK_INDICATOR.matcher(first).matches()) {
                    value.add(first);
                }
                for (int j = i + 1; j < lines.size(); j++) {
                    String line = lines.get(j);
                    if (!line.isBlank() && line.length() - line.stripLeading().length() <= indent) {
                        break;
                    }
                    value.add(line.strip());
                }
                expression = unquote(String.join("\n", value).strip());
                break;
            }
        }
        return new Rule(name.group(1), expression, String.join("\n", lines));
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            return value.substring(1, value.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
            return value.substring(1, value.length() - 1).replace("''", "'");
        }
        return value;
    }

    /** The expression with each string literal emptied ({@code ""}) and each {@code #} comment removed. */
    static String withoutStringsAndComments(String expression) {
        StringBuilder plain = new StringBuilder(expression.length());
        int i = 0;
        while (i < expression.length()) {
            char c = expression.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                int end = i + 1;
                while (end < expression.length() && expression.charAt(end) != c) {
                    end += c != '`' && expression.charAt(end) == '\\' ? 2 : 1;
                }
                plain.append("\"\"");
                i = end + 1;
            } else if (c == '#') {
                int end = expression.indexOf('\n', i);
                i = end < 0 ? expression.length() : end;
            } else {
                plain.append(c);
                i++;
            }
        }
        return plain.toString();
    }

    /**
     * What {@code promtool check metrics} finds wrong in a scrape (Prometheus text format): its complaints, one a
     * line, or an empty string when it is clean. Without promtool this fails, naming the package to install, unless
     * {@code -Dhookstile.promtool.skip=true}: then it says so on standard error and returns an empty string.
     * {@link #hookstileFamilies(String)} narrows a whole scrape to Hookstile's own families first.
     */
    public static String checkMetrics(String scrapeText) {
        if (Promtool.find().isEmpty() && Promtool.skipWhenMissing()) {
            System.err.println("promtool check metrics skipped: " + Promtool.missingMessage());
            return "";
        }
        Promtool.Result result = Promtool.run(Path.of("").toAbsolutePath(), scrapeText, "check", "metrics");
        String output = result.output().strip();
        if (!result.succeeded() && output.isEmpty()) {
            return "promtool check metrics exited with " + result.exitCode();
        }
        return output;
    }

    /** The lines of a scrape that belong to Hookstile's families ({@code hookstile_*}, their HELP, TYPE, UNIT). */
    public static String hookstileFamilies(String scrapeText) {
        return scrapeText.lines()
                .filter(line -> line.startsWith("hookstile_") || line.startsWith("# HELP hookstile_")
                        || line.startsWith("# TYPE hookstile_") || line.startsWith("# UNIT hookstile_"))
                .collect(Collectors.joining("\n", "", "\n"));
    }
}
