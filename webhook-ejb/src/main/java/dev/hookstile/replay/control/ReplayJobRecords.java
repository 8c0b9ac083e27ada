package dev.hookstile.replay.control;

import dev.hookstile.replay.entity.ReplayJob;
import dev.hookstile.replay.entity.ReplayJobStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.sql.Timestamp;
import java.time.Instant;

/** A job's progress, each write its own transaction: the job runs in the background, outside any request. */
@ApplicationScoped
public class ReplayJobRecords {

    @Inject
    EntityManager em;

    @Transactional
    public void progress(String jobId, int matched, int queued) {
        em.createNamedQuery(ReplayJob.PROGRESS).setParameter(1, matched).setParameter(2, queued)
                .setParameter(3, jobId).executeUpdate();
    }

    @Transactional
    public void finish(String jobId, ReplayJobStatus status, int matched, int queued, String error) {
        em.createNamedQuery(ReplayJob.FINISH).setParameter(1, status.column()).setParameter(2, matched)
                .setParameter(3, queued).setParameter(4, Timestamp.from(Instant.now()))
                .setParameter(5, error == null ? null : error.substring(0, Math.min(error.length(), 4000)))
                .setParameter(6, jobId).executeUpdate();
    }

    @Transactional
    public void interruptRunning() {
        em.createNamedQuery(ReplayJob.INTERRUPT).setParameter(1, Timestamp.from(Instant.now())).executeUpdate();
    }
}
