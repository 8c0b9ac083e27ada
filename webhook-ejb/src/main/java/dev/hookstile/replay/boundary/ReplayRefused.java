package dev.hookstile.replay.boundary;

import dev.hookstile.platform.ProblemType;

/**
 * Why a bulk replay job was not started ({@link ReplayJobs#start}): answered as a problem of this type, with this
 * message as its detail. Nothing was started or written.
 */
public final class ReplayRefused extends RuntimeException {

    static final ProblemType TOO_LARGE = new ProblemType(422, "replay-too-large", "Replay too large");
    static final ProblemType JOB_RUNNING = new ProblemType(409, "replay-job-running", "Another replay job is running");

    private static final long serialVersionUID = 1L;
    /** Not serialized with the exception: a record is not serializable, and the refusal never leaves the JVM. */
    private final transient ProblemType problem;

    ReplayRefused(ProblemType problem, String detail) {
        super(detail);
        this.problem = problem;
    }

    public ProblemType problem() {
        return problem;
    }
}
