package dev.hookstile.it;

import dev.hookstile.it.support.BackOfficeProbe;
import dev.hookstile.it.support.ConsumerDetacher;
import dev.hookstile.it.support.EffectRecorder;
import dev.hookstile.it.support.EffectSender;
import dev.hookstile.it.support.EffectTable;
import dev.hookstile.it.support.EventsProbe;
import dev.hookstile.it.support.OrderProbe;
import dev.hookstile.it.support.OrderRecorder;
import dev.hookstile.it.support.QueueProbe;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.File;
import java.nio.file.Path;

/** The archive under test: the real hookstile.war as built, plus the test handler and probes and the tests' sources. */
public final class Deployments {

    private Deployments() {
    }

    public static WebArchive hookstileWithTestHandler() {
        return ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("hookstile.it.war")))
                .addClasses(EffectRecorder.class, EffectTable.class, EventsProbe.class, BackOfficeProbe.class,
                        EffectSender.class, OrderRecorder.class, OrderProbe.class, ConsumerDetacher.class)
                .addClasses(QueueProbe.class)
                .addAsLibrary(ItSources.jar());
    }

    /** The same archive as a file, for tests that run it with the launcher. */
    public static Path exportTo(Path file) {
        hookstileWithTestHandler().as(ZipExporter.class).exportTo(file.toFile(), true);
        return file;
    }
}
