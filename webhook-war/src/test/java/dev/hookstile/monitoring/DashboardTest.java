package dev.hookstile.monitoring;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Grafana dashboard imports as it is: one Prometheus data source asked for at import, and valid PromQL. */
class DashboardTest {

    private static final String DATA_SOURCE = "${DS_PROMETHEUS}";
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");
    private static final Set<String> GRAFANA_VARIABLES = Set.of("__rate_interval", "__interval", "__range");

    private final JsonObject dashboard = MonitoringQueries.dashboard();

    @Test
    void asksForThePrometheusDataSourceAtImportAndUsesItEverywhere() {
        JsonArray inputs = dashboard.getJsonArray("__inputs");
        assertEquals(1, inputs.size(), inputs::toString);
        JsonObject input = inputs.getJsonObject(0);
        assertEquals(List.of("DS_PROMETHEUS", "datasource", "prometheus"),
                List.of(input.getString("name"), input.getString("type"), input.getString("pluginId")));
        List<String> elsewhere = new ArrayList<>();
        for (JsonObject panel : panels()) {
            if (!"row".equals(panel.getString("type"))) {
                checkDataSource(panel, panel.getString("title"), elsewhere);
                panel.getJsonArray("targets").getValuesAs(JsonObject.class)
                        .forEach(target -> checkDataSource(target, panel.getString("title"), elsewhere));
            }
        }
        for (JsonObject variable : dashboard.getJsonObject("templating").getJsonArray("list")
                .getValuesAs(JsonObject.class)) {
            checkDataSource(variable, "variable " + variable.getString("name"), elsewhere);
        }
        assertEquals(List.of(), elsewhere, "not on the data source " + DATA_SOURCE);
    }

    @Test
    void panelsHaveTheirOwnIdsAndPlacesOnTheGrid() {
        Set<Integer> ids = new HashSet<>();
        List<String> wrong = new ArrayList<>();
        List<int[]> taken = new ArrayList<>();
        for (JsonObject panel : panels()) {
            if (!ids.add(panel.getInt("id"))) {
                wrong.add("id " + panel.getInt("id") + " twice");
            }
            JsonObject grid = panel.getJsonObject("gridPos");
            int[] box = {grid.getInt("x"), grid.getInt("y"), grid.getInt("w"), grid.getInt("h")};
            if (box[0] < 0 || box[2] < 1 || box[0] + box[2] > 24 || box[3] < 1) {
                wrong.add(panel.getString("title") + " off the grid");
            }
            for (int[] other : taken) {
                if (box[0] < other[0] + other[2] && other[0] < box[0] + box[2]
                        && box[1] < other[1] + other[3] && other[1] < box[1] + box[3]) {
                    wrong.add(panel.getString("title") + " overlaps another panel");
                }
            }
            taken.add(box);
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void queriesUseOnlyTheDashboardsVariables() {
        Set<String> defined = new TreeSet<>(GRAFANA_VARIABLES);
        dashboard.getJsonObject("templating").getJsonArray("list").getValuesAs(JsonObject.class)
                .forEach(variable -> defined.add(variable.getString("name")));
        Set<String> undefined = new TreeSet<>();
        MonitoringQueries.dashboardQueries().forEach(query -> VARIABLE.matcher(query.expression()).results()
                .map(match -> match.group(1)).filter(name -> !defined.contains(name)).forEach(undefined::add));
        assertEquals(Set.of(), undefined);
    }

    @Test
    void everyPanelQueryIsPromQlPromtoolAccepts(@TempDir Path directory) throws IOException {
        Promtool.require();
        // Each query as a recording rule, Grafana's variables replaced by what they stand for.
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int n = 0;
        for (MonitoringQueries.Query query : MonitoringQueries.dashboardQueries()) {
            if (query.where().startsWith("variable ")) {
                continue;
            }
            String expression = query.expression().replace("$__rate_interval", "5m").replace("$__interval", "1m")
                    .replace("$__range", "6h").replaceAll("\\$\\{?[A-Za-z_][A-Za-z0-9_]*}?", ".*");
            rules.append("      - record: dashboard:query").append(++n).append('\n')
                    .append("        expr: ").append(jsonString(expression)).append('\n');
        }
        Files.writeString(directory.resolve("dashboard.yml"), rules);
        Promtool.Result result = Promtool.run(directory, "", "check", "rules", "dashboard.yml");
        assertTrue(result.succeeded(), result.output() + "\n" + rules);
        assertTrue(result.output().contains("SUCCESS: " + n + " rules found"), result.output());
    }

    private List<JsonObject> panels() {
        List<JsonObject> panels = new ArrayList<>();
        collect(dashboard.getJsonArray("panels"), panels);
        return panels;
    }

    private static void collect(JsonArray array, List<JsonObject> panels) {
        if (array != null) {
            for (JsonObject panel : array.getValuesAs(JsonObject.class)) {
                panels.add(panel);
                collect(panel.getJsonArray("panels"), panels);
            }
        }
    }

    private static void checkDataSource(JsonObject holder, String where, List<String> elsewhere) {
        JsonValue dataSource = holder.get("datasource");
        if (!(dataSource instanceof JsonObject object) || !"prometheus".equals(object.getString("type", ""))
                || !DATA_SOURCE.equals(object.getString("uid", ""))) {
            elsewhere.add(where);
        }
    }

    /** A YAML double-quoted scalar: JSON's string syntax is a subset of it. */
    private static String jsonString(String text) {
        return jakarta.json.Json.createValue(text).toString();
    }
}
