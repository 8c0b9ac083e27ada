package dev.hookstile.start.control;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The {@code @ConfigProperty} injection points of an unpacked application, found without a container: only the
 * classes whose bytes name the annotation are loaded (not initialised), so a check reads a WAR of hundreds of classes
 * in a fraction of a second.
 */
public final class ClassScan {

    private static final byte[] MARK = "org/eclipse/microprofile/config/inject/ConfigProperty"
            .getBytes(StandardCharsets.UTF_8);

    private ClassScan() {
    }

    /** The settings injected by the classes under {@code WEB-INF/classes} and in the jars of {@code WEB-INF/lib}. */
    public static List<WantedSetting> wanted(Path war, ClassLoader loader) throws IOException {
        var names = new ArrayList<String>();
        Path classes = war.resolve("WEB-INF/classes");
        if (Files.isDirectory(classes)) {
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    if (marked(Files.readAllBytes(file))) {
                        names.add(className(classes.relativize(file).toString()));
                    }
                }
            }
        }
        Path lib = war.resolve("WEB-INF/lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                for (Path jar : jars.filter(j -> j.toString().endsWith(".jar")).sorted().toList()) {
                    try (var zip = new ZipFile(jar.toFile())) {
                        for (var entry : java.util.Collections.list(zip.entries())) {
                            if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                                try (InputStream in = zip.getInputStream(entry)) {
                                    if (marked(in.readAllBytes())) {
                                        names.add(className(entry.getName()));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var wanted = new ArrayList<WantedSetting>();
        for (String name : names) {
            Class<?> type;
            try {
                type = Class.forName(name, false, loader);
                wanted.addAll(of(type));
            } catch (ClassNotFoundException | LinkageError e) {
                // A class that cannot be loaded here (it needs the container) cannot be checked here either.
            }
        }
        return wanted;
    }

    private static List<WantedSetting> of(Class<?> type) {
        var wanted = new ArrayList<WantedSetting>();
        for (Field field : type.getDeclaredFields()) {
            ConfigProperty property = field.getAnnotation(ConfigProperty.class);
            if (property != null) {
                String where = type.getName() + "." + field.getName();
                wanted.add(new WantedSetting(property.name().isEmpty() ? where : property.name(),
                        field.getGenericType(), property.defaultValue(), where));
            }
        }
        var executables = new ArrayList<Executable>(List.of(type.getDeclaredConstructors()));
        executables.addAll(List.of(type.getDeclaredMethods()));
        for (Executable executable : executables) {
            for (Parameter parameter : executable.getParameters()) {
                ConfigProperty property = parameter.getAnnotation(ConfigProperty.class);
                if (property != null && !property.name().isEmpty()) {
                    wanted.add(new WantedSetting(property.name(), parameter.getParameterizedType(),
                            property.defaultValue(), type.getName() + "." + executable.getName()));
                }
            }
        }
        return wanted;
    }

    private static boolean marked(byte[] bytes) {
        outer:
        for (int i = 0; i <= bytes.length - MARK.length; i++) {
            for (int j = 0; j < MARK.length; j++) {
                if (bytes[i + j] != MARK[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static String className(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.').replace('\\', '.');
    }
}
