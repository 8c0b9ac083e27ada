package dev.hookstile.events.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** One processing attempt of an event and how it ended: the history an operator reads. */
@Entity
@Table(name = "event_attempt")
@NamedQuery(name = EventAttempt.OF_EVENT, query = """
        SELECT a FROM EventAttempt a WHERE a.source = :source AND a.eventId = :eventId ORDER BY a.attempt, a.id""")
public class EventAttempt {

    public static final String OF_EVENT = "EventAttempt.ofEvent";

    @Id
    private Long id;

    private String source;

    @Column(name = "event_id")
    private String eventId;

    private int attempt;

    /** {@code completed}, {@code ignored}, {@code retrying} or {@code dead}. */
    private String outcome;

    /** {@code transient} or {@code permanent}; {@code null} for a success. */
    private String failure;

    private String error;

    private OffsetDateTime at;

    /** How long the try took, from its start to its outcome; {@code null} for lines written before it was kept. */
    @Column(name = "duration_millis")
    private Integer durationMillis;

    public int getAttempt() {
        return attempt;
    }

    public String getOutcome() {
        return outcome;
    }

    public String getFailure() {
        return failure;
    }

    public String getError() {
        return error;
    }

    public OffsetDateTime getAt() {
        return at;
    }

    public Integer getDurationMillis() {
        return durationMillis;
    }
}
