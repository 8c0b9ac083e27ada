/**
 * Hookstile's own metric registry ({@code Metrics}: counters, gauges, histograms) and its Prometheus text,
 * written by {@code operator}'s {@code /metrics}. Every feature that counts calls it.
 */
package dev.hookstile.metrics;
