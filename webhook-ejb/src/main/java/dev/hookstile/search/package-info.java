/**
 * Finding events by what is inside them: the search keys each source names (JSON pointers into the body), taken out
 * of the body when the event is claimed, and the translation of an operator's {@code customer:cus_9} into them.
 */
package dev.hookstile.search;
