package dev.hookstile.operator.boundary;

import dev.hookstile.operator.control.OperatorGate;
import dev.hookstile.web.boundary.Problems;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

import java.util.function.Function;

/**
 * The operator token (or a console session, with its anti-forgery token), enforced where the request is routed: JAX-RS matches the path its own way (decoded, with
 * {@code ;} parameters dropped), so a path the servlet container does not map to {@code /api/*} can still reach an
 * operator resource. Every such resource is {@link OperatorOnly}; this filter runs on it, after matching, and asks
 * {@link OperatorGate} unless {@link OperatorAuthentication} already admitted the same request.
 */
@Provider
@OperatorOnly
@Priority(Priorities.AUTHENTICATION)
public class OperatorOnlyFilter implements ContainerRequestFilter {

    @Context
    HttpServletRequest servletRequest;

    @Inject
    OperatorGate gate;

    /** Refusal to answer; replaceable in unit tests, which run without a JAX-RS implementation. */
    Function<OperatorGate.Refusal, Response> answers = OperatorOnlyFilter::answer;

    @Override
    public void filter(ContainerRequestContext request) {
        if (Boolean.TRUE.equals(servletRequest.getAttribute(OperatorAuthentication.ADMITTED))) {
            return;
        }
        OperatorGate.Refusal refusal = gate.check(SessionCookie.presented(servletRequest, request.getMethod()));
        if (refusal != null) {
            request.abortWith(answers.apply(refusal));
        }
    }

    static Response answer(OperatorGate.Refusal refusal) {
        Response.ResponseBuilder answer = Problems.of(refusal.status(), refusal.slug(), refusal.title(),
                refusal.detail(), null);
        if (refusal.challenge() != null) {
            answer.header("WWW-Authenticate", refusal.challenge());
        }
        if (refusal.retryAfterSeconds() > 0) {
            answer.header("Retry-After", Long.toString(refusal.retryAfterSeconds()));
        }
        return answer.build();
    }
}
