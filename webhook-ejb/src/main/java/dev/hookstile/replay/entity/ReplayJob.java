package dev.hookstile.replay.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedNativeQuery;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** A bulk replay: which events its filter selected, how far it got. */
@Entity
@Table(name = "replay_job")
@NamedNativeQuery(name = ReplayJob.CREATE, query = """
        INSERT INTO replay_job (id, request_key, filter, status, matched, queued, created_at, heartbeat_at,
                                running_slot)
        VALUES (?1, ?2, ?3,\s""" + ReplayJobStatus.RUNNING_IN_SQL + """
        , 0, 0, ?4, ?4, 1)
        ON CONFLICT DO NOTHING""")
@NamedNativeQuery(name = ReplayJob.PROGRESS, query = """
        UPDATE replay_job SET matched = ?1, queued = ?2, heartbeat_at = ?3
        WHERE id = ?4 AND status =\s""" + ReplayJobStatus.RUNNING_IN_SQL)
@NamedNativeQuery(name = ReplayJob.HEARTBEAT, query = """
        UPDATE replay_job SET heartbeat_at = ?1 WHERE id = ?2 AND status =\s""" + ReplayJobStatus.RUNNING_IN_SQL)
@NamedNativeQuery(name = ReplayJob.FINISH, query = """
        UPDATE replay_job SET status = ?1, matched = ?2, queued = ?3, finished_at = ?4, error = ?5, running_slot = NULL
        WHERE id = ?6 AND status =\s""" + ReplayJobStatus.RUNNING_IN_SQL)
@NamedNativeQuery(name = ReplayJob.CANCEL, query = """
        UPDATE replay_job SET status =\s""" + ReplayJobStatus.CANCELLED_IN_SQL + """
        , finished_at = ?1, running_slot = NULL WHERE id = ?2 AND status =\s""" + ReplayJobStatus.RUNNING_IN_SQL)
@NamedNativeQuery(name = ReplayJob.STATUS, query = "SELECT status FROM replay_job WHERE id = ?1")
@NamedNativeQuery(name = ReplayJob.RUNNING, query = "SELECT id FROM replay_job WHERE running_slot = 1")
@NamedNativeQuery(name = ReplayJob.INTERRUPT, query = """
        UPDATE replay_job SET status =\s""" + ReplayJobStatus.INTERRUPTED_IN_SQL + """
        , finished_at = ?1, running_slot = NULL
        WHERE status =\s""" + ReplayJobStatus.RUNNING_IN_SQL + """
         AND (heartbeat_at IS NULL OR heartbeat_at < ?2)""")
@NamedQuery(name = ReplayJob.BY_REQUEST, query = "SELECT j FROM ReplayJob j WHERE j.requestKey = :key")
public class ReplayJob {

    /** Idempotent: a second request with the same key inserts nothing and finds the first job. */
    public static final String CREATE = "ReplayJob.create";
    /** The job's counts and its heartbeat, while it runs; 0 rows: it was cancelled or interrupted meanwhile. */
    public static final String PROGRESS = "ReplayJob.progress";
    /** The running job's owner is alive: written at least every {@code ReplayJobs.HEARTBEAT} while it runs or waits. */
    public static final String HEARTBEAT = "ReplayJob.heartbeat";
    /** The job that runs now, on any instance: one at a time per database. */
    public static final String RUNNING = "ReplayJob.running";
    /** Only a running job finishes: one cancelled meanwhile stays cancelled. */
    public static final String FINISH = "ReplayJob.finish";
    /** Stops a running job: it sees it between two pages and stops there. */
    public static final String CANCEL = "ReplayJob.cancel";
    public static final String STATUS = "ReplayJob.status";
    /**
     * A running job whose heartbeat stopped (its instance stopped or crashed) will not continue by itself: marked
     * interrupted, which frees the slot for the next job. A job another instance runs keeps its heartbeat fresh and is
     * left alone.
     */
    public static final String INTERRUPT = "ReplayJob.interrupt";
    public static final String BY_REQUEST = "ReplayJob.byRequest";

    @Id
    private String id;

    @Column(name = "request_key")
    private String requestKey;

    private String filter;

    /** A {@link ReplayJobStatus}'s column. */
    private String status;

    private int matched;

    private int queued;

    @Column(name = "created_at")
    private OffsetDateTime createdAt;

    @Column(name = "finished_at")
    private OffsetDateTime finishedAt;

    private String error;

    public String getId() {
        return id;
    }

    /** The filter as JSON. */
    public String getFilter() {
        return filter;
    }

    public ReplayJobStatus getStatus() {
        return ReplayJobStatus.of(status);
    }

    /** Events the filter selected so far. */
    public int getMatched() {
        return matched;
    }

    /** Of those, queued again (the others were already queued or retrying). */
    public int getQueued() {
        return queued;
    }

    public OffsetDateTime getCreatedAt() {
        return createdAt;
    }

    public OffsetDateTime getFinishedAt() {
        return finishedAt;
    }

    public String getError() {
        return error;
    }
}
