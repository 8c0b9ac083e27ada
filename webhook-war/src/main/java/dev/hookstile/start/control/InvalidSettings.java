package dev.hookstile.start.control;

import java.util.List;

/** The deployment's refusal: its message is the problems, one per line, as {@code asadmin deploy} shows it. */
public class InvalidSettings extends RuntimeException {

    public InvalidSettings(List<String> problems) {
        super(problems.size() + (problems.size() == 1 ? " setting" : " settings") + " to fix:\n"
                + String.join("\n", problems));
    }

    /** The message is the whole story; a stack trace would bury it. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
