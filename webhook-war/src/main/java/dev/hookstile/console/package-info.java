/**
 * The operator console at {@code /console/}: its static page and WebJars, served compressed. The page
 * calls the operator API only.
 */
package dev.hookstile.console;
