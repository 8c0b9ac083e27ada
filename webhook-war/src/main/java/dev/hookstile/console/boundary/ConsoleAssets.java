package dev.hookstile.console.boundary;

import dev.hookstile.console.control.GzipResponse;
import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Serves the operator console's static files ({@code /console/}, from the WAR) and the WebJars it loads
 * ({@code /_static/} and {@code /webjars/}, from {@code META-INF/resources} of the jars in {@code WEB-INF/lib}) with
 * the container's own file servlet.
 *
 * <p>JAX-RS is mapped at the root ({@code /*}), so without this every such request would reach JAX-RS and be
 * answered 404; and an application may not map the container's {@code default} servlet in {@code web.xml} (Payara
 * refuses the deployment: "no web component by the name of default"). A named dispatch to it keeps the request's
 * path, which the file servlet resolves. {@code /console/} is the console's one page, {@code index.html}: the
 * container's welcome-file rule does not apply to a path JAX-RS matched. Only {@code GET} and {@code HEAD}: anything
 * else goes on to JAX-RS (405/404), as before. Text files go gzip-compressed to a browser that accepts it
 * ({@link GzipResponse}): the console weighs about 65 KB on the wire instead of 172 KB.
 */
@WebFilter(urlPatterns = {"/console/*", "/_static/*", "/webjars/*"}, asyncSupported = true)
public class ConsoleAssets extends HttpFilter {

    static final String PAGE = "/console/index.html";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        RequestDispatcher files = request.getServletContext().getNamedDispatcher("default");
        String method = request.getMethod();
        if (files == null || !("GET".equals(method) || "HEAD".equals(method))) {
            chain.doFilter(request, response);
            return;
        }
        // /console itself never gets here: SecurityHeaders redirects it to /console/ first.
        String path = request.getRequestURI().substring(request.getContextPath().length());
        // The files are UTF-8; the container would otherwise name ISO-8859-1, which the page's own declaration
        // cannot override (the header wins).
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", cacheControl(path));
        HttpServletRequest file = isPage(path) ? new Page(request) : request;
        if (!compressible(path)) {
            files.forward(file, response);
            return;
        }
        response.addHeader("Vary", "Accept-Encoding");
        // A HEAD names the uncompressed length: without a body a compressed answer could only say 0.
        if ("HEAD".equals(method) || !GzipResponse.accepted(request.getHeader("Accept-Encoding"))) {
            files.forward(file, response);
            return;
        }
        GzipResponse compressed = new GzipResponse(response);
        files.forward(GzipResponse.wholeFile(file), compressed);
        compressed.finish();
    }

    /** Text worth compressing: the page, its scripts and stylesheets (images and archives are compressed already). */
    static boolean compressible(String path) {
        return path.equals("/console/") || path.endsWith(".js") || path.endsWith(".css") || path.endsWith(".html")
                || path.endsWith(".json") || path.endsWith(".svg");
    }

    /**
     * The console's own files are revalidated at every load (an unchanged file costs a 304): after an upgrade a
     * browser must not run old modules beside new ones, which the container's Last-Modified alone would allow for
     * a while. A WebJar's path names its version, so what is there never changes.
     */
    static String cacheControl(String path) {
        return path.startsWith("/console/") ? "no-cache" : "public, max-age=31536000, immutable";
    }

    /** {@code /console/} (the page) as opposed to a file below it. */
    static boolean isPage(String path) {
        return path.equals("/console/");
    }

    /** The request for {@code /console/} as a request for {@code /console/index.html}. */
    static final class Page extends HttpServletRequestWrapper {

        Page(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getServletPath() {
            return "";
        }

        @Override
        public String getPathInfo() {
            return PAGE;
        }

        @Override
        public String getRequestURI() {
            return getContextPath() + PAGE;
        }

        @Override
        public StringBuffer getRequestURL() {
            StringBuffer url = super.getRequestURL();
            return url.replace(url.length() - "/console/".length(), url.length(), PAGE);
        }
    }
}
