package dev.hookstile.replay.boundary;

/**
 * Why a bulk replay job was not started ({@link ReplayJobs#start}): answered as a problem with this status and type.
 * Nothing was started or written.
 */
public final class ReplayRefused extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final int status;
    private final String slug;
    private final String title;

    ReplayRefused(int status, String slug, String title, String detail) {
        super(detail);
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }
}
