package dev.hookstile.it;

import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.SearchContext;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The operator console in a real browser, driven as an operator drives it: Debian's Chromium through its
 * ChromeDriver ({@code /usr/bin/chromium}, {@code /usr/bin/chromedriver}; {@code .ci/run} installs both), headless,
 * offline: no driver or browser is ever downloaded, and Chromium is told not to call home.
 *
 * <p>Controls are found by what an operator reads (a field by its label, a button by its name, a heading by its
 * text), never by CSS classes or ids the console may rename. Everything waits for a condition, never for a fixed
 * time. Whatever the page reports as an error (an uncaught exception, a Content-Security-Policy violation, a failed
 * module load) is collected from the browser's log: {@link #assertNoProblems()} fails the test on any of them, except
 * HTTP answers a test declared it expects (a wrong token's 401).
 */
public final class Browser implements AutoCloseable {

    /** Long enough for a cold JIT on a busy 2-core machine; every wait ends as soon as its condition holds. */
    public static final Duration WAIT = Duration.ofSeconds(20);

    private static final int SCREENSHOT_MAX_HEIGHT = 2400;

    /**
     * Selenium looks for CDP bindings of Chromium's exact version at every start and warns when it has none; this
     * class uses none (only WebDriver and ChromeDriver's log), so the warning says nothing. Held: JUL keeps loggers
     * weakly.
     */
    private static final java.util.logging.Logger CDP_LOG = quiet("org.openqa.selenium.devtools");

    private static final Pattern FAILED_LOAD = Pattern.compile("status of (\\d{3})");

    private final ChromeDriver driver;
    private final String base;
    private final List<String> problems = new ArrayList<>();
    private final Set<Integer> expectedStatuses = new java.util.HashSet<>();

    private Browser(ChromeDriver driver, String base) {
        this.driver = driver;
        this.base = base.endsWith("/") ? base : base + "/";
    }

    /** A new headless Chromium for the application at {@code base} (its root, where {@code console/} lives). */
    public static Browser open(String base) {
        String binary = System.getProperty("hookstile.it.chromium", "/usr/bin/chromium");
        String driverPath = System.getProperty("webdriver.chrome.driver", "/usr/bin/chromedriver");
        if (!Files.isExecutable(Path.of(binary)) || !Files.isExecutable(Path.of(driverPath))) {
            fail("the browser tests need Debian's Chromium and ChromeDriver (" + binary + ", " + driverPath
                    + "): apt-get install chromium chromium-driver (.ci/run does)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-default-apps", "--disable-extensions", "--window-size=1280,900",
                "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(driverPath))
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(WAIT);
        return new Browser(driver, base);
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** The application's root URL, e.g. {@code http://127.0.0.1:8080/}. */
    public String base() {
        return base;
    }

    /**
     * Loads the console afresh at a route ({@code "#/events?source=gh"}, or {@code ""} for the start page) in this
     * tab. Fresh: from one console URL to another differing only after {@code #}, the browser would only change
     * the route inside the running page, keeping its memory (what it loaded, its anti-forgery token).
     */
    public Browser console(String route) {
        if (driver.getCurrentUrl().startsWith(base + "console/")) {
            navigate("about:blank");
        }
        return navigate(base + "console/" + route);
    }

    /** Types a URL into this tab's address bar, as an operator opening a link does. */
    public Browser navigate(String url) {
        collectProblems();
        driver.get(url);
        return this;
    }

    /** Opens the URL in a new tab of the same browser (same cookies, nothing of the old page's memory). */
    public Browser inNewTab(String url) {
        collectProblems();
        driver.switchTo().newWindow(WindowType.TAB);
        driver.get(url);
        return this;
    }

    /** Closes every tab but one and forgets the cookies: the next test starts signed out. */
    public void reset() {
        collectProblems();
        List<String> handles = new ArrayList<>(driver.getWindowHandles());
        for (int i = 1; i < handles.size(); i++) {
            driver.switchTo().window(handles.get(i)).close();
        }
        driver.switchTo().window(handles.get(0));
        driver.get("about:blank");
        // WebDriver deletes only the current page's cookies, and about:blank has none: ask Chromium for all.
        driver.executeCdpCommand("Network.clearBrowserCookies", java.util.Map.of());
        problems.clear();
        expectedStatuses.clear();
    }

    public String currentUrl() {
        return driver.getCurrentUrl();
    }

    // ---- finding what an operator sees ----

    /** The input, select or text area labelled so: by its {@code <label>}, {@code aria-label} or placeholder. */
    public WebElement field(String label) {
        return await("a field labelled " + quote(label), d -> visible(fieldCandidates(driver, label)));
    }

    private List<WebElement> fieldCandidates(SearchContext scope, String label) {
        String l = literal(label);
        String controls = "self::input or self::select or self::textarea";
        List<WebElement> found = new ArrayList<>();
        for (WebElement labelElement : scope.findElements(By.xpath(
                ".//label[normalize-space(.)=" + l + " or normalize-space(text())=" + l + "]"))) {
            String target = labelElement.getAttribute("for");
            if (target != null && !target.isEmpty()) {
                found.addAll(driver.findElements(By.id(target)));
            }
            found.addAll(labelElement.findElements(By.xpath(".//*[" + controls + "]")));
        }
        found.addAll(scope.findElements(By.xpath(".//*[(" + controls + ") and (@aria-label=" + l
                + " or @placeholder=" + l + ")]")));
        for (WebElement control : scope.findElements(By.xpath(".//*[(" + controls + ") and @aria-labelledby]"))) {
            String ids = control.getAttribute("aria-labelledby");
            for (String id : ids.trim().split("\\s+")) {
                for (WebElement named : driver.findElements(By.id(id))) {
                    if (label.equals(named.getText().trim())) {
                        found.add(control);
                    }
                }
            }
        }
        return found;
    }

    /** The one visible button (or link styled as one) whose accessible name is exactly this. */
    public WebElement button(String name) {
        return within(driver).button(name);
    }

    /** A part of the page to look in: the row, card or section holding this text (a dead group, an event). */
    public Scope region(String text) {
        // The innermost such element: document order puts it last among those holding the text.
        WebElement region = await("a row or section showing " + quote(text), d -> visibleAll(driver.findElements(
                By.xpath("//*[self::tr or self::li or self::article or self::section or @role='row'"
                        + " or @role='listitem'][contains(normalize-space(.), " + literal(text) + ")]")))
                .stream().reduce((outer, inner) -> inner).orElse(null));
        return new Scope(region);
    }

    public Scope within(SearchContext context) {
        return new Scope(context);
    }

    /** What can be looked for inside one part of the page. */
    public final class Scope {
        private final SearchContext context;

        Scope(SearchContext context) {
            this.context = context;
        }

        public WebElement element() {
            return (WebElement) context;
        }

        public WebElement button(String name) {
            String n = literal(name);
            return await("a button named " + quote(name), d -> {
                List<WebElement> candidates = visibleAll(context.findElements(By.xpath(
                        ".//button[normalize-space(.)=" + n + " or @aria-label=" + n + "]"
                                + " | .//input[(@type='submit' or @type='button') and @value=" + n + "]"
                                + " | .//*[@role='button' and (normalize-space(.)=" + n + " or @aria-label=" + n + ")]"
                                + " | .//a[normalize-space(.)=" + n + " or @aria-label=" + n + "]")));
                return candidates.isEmpty() ? null : candidates.get(0);
            });
        }

        public WebElement link(String text) {
            String t = literal(text);
            return await("a link " + quote(text), d -> visible(context.findElements(By.xpath(
                    ".//a[normalize-space(.)=" + t + " or contains(normalize-space(.), " + t + ")]"))));
        }

        public String text() {
            return context instanceof WebElement e ? e.getText() : driver.findElement(By.tagName("body")).getText();
        }
    }

    public WebElement link(String text) {
        return within(driver).link(text);
    }

    /** Waits for the page's main heading ({@code h1}) to read exactly this. */
    public WebElement heading(String text) {
        return await("the heading " + quote(text), d -> visible(driver.findElements(By.xpath(
                "//h1[normalize-space(.)=" + literal(text) + "]"))));
    }

    /** Waits until the visible text of the page contains this. */
    public void awaitText(String text) {
        await("the page to show " + quote(text), d -> bodyText().contains(text) ? Boolean.TRUE : null);
    }

    /** Waits until the visible text of the page no longer contains this. */
    public void awaitNoText(String text) {
        await("the page to stop showing " + quote(text), d -> bodyText().contains(text) ? null : Boolean.TRUE);
    }

    public String bodyText() {
        try {
            return driver.findElement(By.tagName("body")).getText();
        } catch (StaleElementReferenceException e) {
            return "";
        }
    }

    /** Waits for the condition, polling every 100 ms; fails with what was awaited and the page's text. */
    public <T> T await(String what, ExpectedCondition<T> condition) {
        return await(what, WAIT, condition);
    }

    public <T> T await(String what, Duration timeout, ExpectedCondition<T> condition) {
        WebDriverWait wait = new WebDriverWait(driver, timeout, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        try {
            return wait.until(condition);
        } catch (org.openqa.selenium.TimeoutException e) {
            String text;
            try {
                text = bodyText();
            } catch (WebDriverException ignored) {
                text = "(unreadable)";
            }
            return fail("waited " + timeout.toSeconds() + " s for " + what + " at " + driver.getCurrentUrl()
                    + "; the page shows:\n" + abbreviate(text) + problemsSoFar());
        }
    }

    // ---- acting ----

    /** The current value of the field labelled so (a select's chosen value). */
    public String valueOf(String label) {
        return field(label).getDomProperty("value");
    }

    public Browser type(String label, String text) {
        WebElement field = field(label);
        field.clear();
        field.sendKeys(text);
        return this;
    }

    /** Picks an option of the select labelled so, by its visible text or its value. */
    public Browser choose(String label, String option) {
        // The options may come from the API (the configured sources): wait for this one to be offered.
        var choice = await("the option " + quote(option) + " in " + quote(label), d -> {
            var select = new org.openqa.selenium.support.ui.Select(field(label));
            return select.getOptions().stream().anyMatch(o -> option.equals(o.getText().trim())
                    || option.equals(o.getAttribute("value"))) ? select : null;
        });
        if (choice.getOptions().stream().anyMatch(o -> option.equals(o.getText().trim()))) {
            choice.selectByVisibleText(option);
        } else {
            choice.selectByValue(option);
        }
        return this;
    }

    public Browser click(String button) {
        button(button).click();
        return this;
    }

    /**
     * Confirms what the page asks before a replay: a native {@code confirm()} if one is open, otherwise the
     * confirming button of the open dialog, named {@code confirmButton}.
     */
    public void confirm(String confirmButton) {
        Optional<Alert> alert = alert();
        if (alert.isPresent()) {
            alert.get().accept();
            return;
        }
        WebElement dialog = await("a confirmation dialog", d -> visible(driver.findElements(By.xpath(
                "//dialog[@open] | //*[@role='dialog' or @role='alertdialog']"))));
        within(dialog).button(confirmButton).click();
    }

    private Optional<Alert> alert() {
        try {
            return Optional.of(driver.switchTo().alert());
        } catch (NoAlertPresentException e) {
            return Optional.empty();
        }
    }

    public Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    public Optional<Cookie> cookie(String name) {
        return Optional.ofNullable(driver.manage().getCookieNamed(name));
    }

    // ---- evidence ----

    /** Saves what the browser shows to {@code target/screenshots/<name>.png} and answers the file. */
    public Path screenshot(String name) {
        Path dir = Path.of(System.getProperty("hookstile.it.screenshots", "target/screenshots"));
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_") + ".png");
            Files.write(file, fullPage());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The whole page down to {@link #SCREENSHOT_MAX_HEIGHT} pixels, not just the window: what a test saw below the
     * fold (an event's payload, the last rows) is what one looks for when it fails. Chromium's own capture; the
     * window's if that is refused.
     */
    @SuppressWarnings("unchecked")
    private byte[] fullPage() {
        try {
            Map<String, Object> metrics = driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
            Map<String, Object> size = (Map<String, Object>) metrics.get("cssContentSize");
            double width = ((Number) size.get("width")).doubleValue();
            double height = Math.min(((Number) size.get("height")).doubleValue(), SCREENSHOT_MAX_HEIGHT);
            Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot", Map.of(
                    "format", "png", "captureBeyondViewport", true,
                    "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
            return java.util.Base64.getDecoder().decode((String) shot.get("data"));
        } catch (WebDriverException | ClassCastException | NullPointerException e) {
            return driver.getScreenshotAs(OutputType.BYTES);
        }
    }

    /** Declares an HTTP status the page is meant to meet (a wrong token's 401): its log line is no problem. */
    public Browser expectStatus(int status) {
        expectedStatuses.add(status);
        return this;
    }

    /**
     * Every error the browser reported since the last reset: uncaught exceptions, CSP violations, {@code
     * console.error} and failed loads (but those with an expected status).
     */
    public List<String> problems() {
        collectProblems();
        return List.copyOf(problems);
    }

    /** Forgets what was reported so far: for a test that provoked a problem on purpose and checked it. */
    public void forgetProblems() {
        collectProblems();
        problems.clear();
    }

    public void assertNoProblems() {
        List<String> found = problems();
        if (!found.isEmpty()) {
            fail("the browser reported " + found.size() + " problem(s):\n  " + String.join("\n  ", found));
        }
    }

    private void collectProblems() {
        try {
            for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
                if (isProblem(entry)) {
                    problems.add(entry.getLevel() + " " + entry.getMessage());
                }
            }
        } catch (WebDriverException e) {
            problems.add("the browser log could not be read: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    private boolean isProblem(LogEntry entry) {
        String message = entry.getMessage();
        if (message.contains("Content Security Policy") || message.contains("Uncaught")) {
            return true;
        }
        if (entry.getLevel().intValue() < Level.SEVERE.intValue()) {
            return false;
        }
        Matcher status = FAILED_LOAD.matcher(message);
        if (!message.contains("Failed to load resource") || !status.find()) {
            return true;
        }
        int code = Integer.parseInt(status.group(1));
        // A signed-out page asks whether it has a session: the 401 is its answer, not a fault.
        boolean sessionProbe = code == 401 && message.contains("/api/session ");
        return !sessionProbe && !expectedStatuses.contains(code);
    }

    private String problemsSoFar() {
        List<String> found = problems();
        return found.isEmpty() ? "" : "\nthe browser reported:\n  " + String.join("\n  ", found);
    }

    @Override
    public void close() {
        driver.quit();
    }

    // ---- helpers ----

    private static WebElement visible(List<WebElement> elements) {
        List<WebElement> shown = visibleAll(elements);
        return shown.isEmpty() ? null : shown.get(0);
    }

    private static List<WebElement> visibleAll(List<WebElement> elements) {
        List<WebElement> shown = new ArrayList<>();
        for (WebElement element : elements) {
            if (element.isDisplayed()) {
                shown.add(element);
            }
        }
        return shown;
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    /** An XPath string literal for any text, quotes included. */
    static String literal(String text) {
        if (!text.contains("'")) {
            return "'" + text + "'";
        }
        if (!text.contains("\"")) {
            return "\"" + text + "\"";
        }
        return "concat('" + text.replace("'", "', \"'\", '") + "')";
    }

    private static String quote(String text) {
        return "\"" + text + "\"";
    }

    private static String abbreviate(String text) {
        return text.length() > 2000 ? text.substring(0, 2000) + "…" : text;
    }
}
