package dev.hookstile.monitoring;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The alert rules pass {@code promtool check rules} and their unit tests ({@code promtool test rules}), and those
 * tests can fail: made unable to fire, each alert fails its own cases. Without promtool these tests fail, naming the
 * package to install, unless {@code -Dhookstile.promtool.skip=true}.
 */
class AlertRulesTest {

    private static final Pattern MUST_NOT_FIRE = Pattern.compile(
            "alertname:\\s*(\\S+)\\s*\\n\\s*exp_alerts:\\s*\\[]");
    private static final Pattern TEST_GROUP = Pattern.compile("^  - ");
    private static final Pattern RUNBOOK = Pattern.compile("runbook_url:\\s*\"?([^\"\\s]+)\"?");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*$");

    @Test
    void rulesPassPromtoolsCheck() {
        Path rules = MonitoringQueries.alertRulesFile();
        Promtool.Result result = Promtool.run(rules.getParent(), "", "check", "rules", rules.getFileName().toString());
        assertTrue(result.succeeded(), result.output());
        // The rules this code base reads are the rules promtool reads.
        assertTrue(result.output().contains("SUCCESS: " + MonitoringQueries.alertRules().size() + " rules found"),
                result.output());
    }

    @Test
    void rulesPassTheirUnitTests() {
        List<Path> tests = MonitoringQueries.alertTestFiles();
        assertFalse(tests.isEmpty());
        List<String> arguments = new ArrayList<>(List.of("test", "rules"));
        tests.forEach(test -> arguments.add(test.getFileName().toString()));
        Promtool.Result result = Promtool.run(tests.get(0).getParent(), "", arguments.toArray(String[]::new));
        assertTrue(result.succeeded(), result.output());
    }

    @Test
    void eachAlertMadeUnableToFireFailsItsUnitTests(@TempDir Path directory) throws IOException {
        Promtool.require();
        String rules = Files.readString(MonitoringQueries.alertRulesFile());
        List<String> tests = MonitoringQueries.alertTestFiles().stream().map(AlertRulesTest::read).toList();
        List<String> untested = new ArrayList<>();
        for (MonitoringQueries.Rule rule : MonitoringQueries.alertRules()) {
            assertTrue(rules.contains(rule.text()), rule.name());
            Files.writeString(directory.resolve(MonitoringQueries.alertRulesFile().getFileName()),
                    rules.replace(rule.text(), neverFiring(rule.text())));
            // Only the test groups about this alert: all of them, once per alert, would take a minute.
            List<String> arguments = new ArrayList<>(List.of("test", "rules"));
            for (int i = 0; i < tests.size(); i++) {
                String groups = groupsAbout(rule.name(), tests.get(i));
                if (groups != null) {
                    Files.writeString(directory.resolve("test-" + i + ".yml"), groups);
                    arguments.add("test-" + i + ".yml");
                }
            }
            Promtool.Result result = arguments.size() == 2 ? null
                    : Promtool.run(directory, "", arguments.toArray(String[]::new));
            if (result == null || result.succeeded() || !result.output().contains("alertname: " + rule.name() + ",")) {
                untested.add(rule.name());
            }
        }
        assertEquals(List.of(), untested, "alerts no unit test expects to fire");
    }

    @Test
    void eachAlertHasACaseWhereItMustNotFire() {
        Set<String> quiet = MonitoringQueries.alertTestFiles().stream().map(AlertRulesTest::read)
                .flatMap(tests -> MUST_NOT_FIRE.matcher(tests).results().map(match -> match.group(1)))
                .collect(Collectors.toSet());
        List<String> untested = MonitoringQueries.alertRules().stream().map(MonitoringQueries.Rule::name)
                .filter(name -> !quiet.contains(name)).toList();
        assertEquals(List.of(), untested, "alerts without a case of exp_alerts: []");
    }

    @Test
    void everyRunbookIsASectionOfTheMonitoringDocs() throws IOException {
        Path docs = MonitoringQueries.directory().getParent().resolve("docs/monitoring.md");
        Set<String> anchors = HEADING.matcher(Files.readString(docs)).results()
                .map(heading -> anchor(heading.group(1))).collect(Collectors.toCollection(TreeSet::new));
        List<String> broken = new ArrayList<>();
        for (MonitoringQueries.Rule rule : MonitoringQueries.alertRules()) {
            Matcher runbook = RUNBOOK.matcher(rule.text());
            String anchor = rule.name().toLowerCase(Locale.ROOT);
            if (!runbook.find() || !runbook.group(1).equals("docs/monitoring.md#" + anchor)
                    || !anchors.contains(anchor)) {
                broken.add(rule.name());
            }
        }
        assertEquals(List.of(), broken, "runbook_url not docs/monitoring.md#<alert name>, a heading there");
    }

    /** The rule with its expression replaced by one that never returns a sample. */
    private static String neverFiring(String rule) {
        List<String> lines = rule.lines().toList();
        StringBuilder mutated = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String key = line.stripLeading();
            if (!key.startsWith("expr:")) {
                mutated.append(line).append('\n');
                continue;
            }
            int indent = line.length() - key.length();
            mutated.append(" ".repeat(indent)).append("expr: vector(1) < 0\n");
            while (i + 1 < lines.size() && (lines.get(i + 1).isBlank()
                    || lines.get(i + 1).length() - lines.get(i + 1).stripLeading().length() > indent)) {
                i++;
            }
        }
        return mutated.toString();
    }

    /**
     * A unit test file with only the test groups (the items of {@code tests:}, indented two spaces) that evaluate
     * {@code alert}; {@code null} when none does.
     */
    private static String groupsAbout(String alert, String tests) {
        List<String> lines = tests.lines().toList();
        int start = lines.indexOf("tests:") + 1;
        StringBuilder kept = new StringBuilder(String.join("\n", lines.subList(0, start))).append('\n');
        Pattern about = Pattern.compile("(?m)^\\s*alertname:\\s*" + Pattern.quote(alert) + "\\s*$");
        boolean any = false;
        List<String> group = new ArrayList<>();
        for (int i = start; i <= lines.size(); i++) {
            if (i == lines.size() || TEST_GROUP.matcher(lines.get(i)).find()) {
                String text = String.join("\n", group);
                if (about.matcher(text).find()) {
                    kept.append(text).append('\n');
                    any = true;
                }
                group.clear();
            }
            if (i < lines.size()) {
                group.add(lines.get(i));
            }
        }
        return any ? kept.toString() : null;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The anchor GitHub gives a Markdown heading. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
