/**
 * MicroProfile Health: readiness (database, broker, queue consumers) and liveness (the process, stalled
 * consumers), each check's answer kept briefly so that probes cost the database and broker little.
 */
package dev.hookstile.health;
