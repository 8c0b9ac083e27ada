package dev.hookstile.operator.boundary;

import jakarta.ws.rs.NameBinding;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an operator resource: {@link OperatorOnlyFilter} admits a request to it only with the admin token, however
 * the request's path was spelled. Every {@code *Resource} in this package carries it (OperatorResourcesTest).
 */
@NameBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface OperatorOnly {
}
