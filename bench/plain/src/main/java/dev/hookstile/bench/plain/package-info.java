/**
 * The plain receiver: the benchmark's third limit, the receiver-side pattern a team would write by hand on the same
 * stack (Payara Micro, JAX-RS, PostgreSQL) with no broker. A request verifies GitHub's signature and inserts the
 * event, deduplicated by its unique key, with autocommit; worker threads take pending rows with
 * {@code FOR UPDATE SKIP LOCKED}, so PostgreSQL is the queue. It shows what Hookstile's broker, retries, dead letters
 * and operator API cost compared with the simplest durable design, and nothing here may do more than that design
 * needs: no metrics, retries beyond a pause, or console.
 */
package dev.hookstile.bench.plain;
