/**
 * What every feature stands on: the container's resources, named once ({@code ContainerResources}: data
 * sources, connection factories, queues), the schema's migration, the data directory, log fields and redaction, and
 * {@link dev.hookstile.platform.StatementFailure}, {@link dev.hookstile.platform.AfterCommit} and
 * {@link dev.hookstile.platform.ProblemType}. Calls no other feature.
 */
package dev.hookstile.platform;
