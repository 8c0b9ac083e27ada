package dev.hookstile.notify.control;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoticeBodyTest {

    private static final Instant WINDOW = Instant.parse("2026-11-25T10:00:00Z");
    private static final String LINK = "https://hooks.example.com/console/#/dead?source=gh";
    /** What a sender can make a handler throw: a mention, a link, markup. */
    private static final String HOSTILE = "<!channel> <@U024BE7LH> <https://evil.example|click> & `code` \"quoted\"";

    private static Notice dead(long count, String sample) {
        return new Notice(Notice.Type.EVENTS_DEAD, "gh", "permanent", count, WINDOW.plusMillis(1_234),
                WINDOW.plusMillis(59_001), WINDOW, sample);
    }

    private static JsonObject json(byte[] body) {
        return Json.createReader(new ByteArrayInputStream(body)).readObject();
    }

    @Test
    void theJsonBodyCarriesWhatAnEndpointNeeds() {
        JsonObject body = json(NoticeBody.of(dead(200, "com.example.Broken: no"), NoticeBody.Format.JSON, LINK, true));

        assertEquals("events.dead:gh:permanent:" + WINDOW.getEpochSecond(), body.getString("id"));
        assertEquals("events.dead", body.getString("type"));
        assertEquals("gh", body.getString("source"));
        assertEquals("permanent", body.getString("failure"));
        assertEquals(200, body.getInt("count"));
        assertEquals("2026-11-25T10:00:01.234Z", body.getString("first"));
        assertEquals("2026-11-25T10:00:59.001Z", body.getString("last"));
        assertEquals("com.example.Broken: no", body.getString("sample"));
        assertEquals(LINK, body.getString("link"));
        assertFalse(body.containsKey("text"), "no chat text in the json format");
        assertFalse(body.containsKey("destination"));
    }

    @Test
    void aLongPauseNamesItsDestinationWhatItHoldsAndIsOneNotificationPerPause() {
        var paused = new Notice(Notice.Type.DESTINATION_PAUSED, "fwd", null, 42, WINDOW, WINDOW.plusSeconds(3_700),
                WINDOW, null);

        JsonObject body = json(NoticeBody.of(paused, NoticeBody.Format.JSON, "/console/#/forwardings?source=fwd",
                false));

        assertEquals("destination.paused_long", body.getString("type"));
        assertEquals("fwd", body.getString("destination"));
        assertEquals(42, body.getInt("count"));
        assertEquals("destination.paused_long:fwd:" + WINDOW.getEpochSecond(), paused.id(), "the pause's time: once");
        assertEquals("forwardings?source=fwd", paused.view());
        assertTrue(NoticeBody.slackText(paused, null).contains("42 forwardings held"));
    }

    @Test
    void aBreakerNamesItsDestinationAndHasNoFailure() {
        var opened = new Notice(Notice.Type.BREAKER_OPENED, "fwd", null, 2, WINDOW, WINDOW.plusSeconds(3), WINDOW,
                null);

        JsonObject body = json(NoticeBody.of(opened, NoticeBody.Format.JSON, "/console/#/forwardings?source=fwd",
                false));

        assertEquals("destination.breaker_opened", body.getString("type"));
        assertEquals("fwd", body.getString("destination"));
        assertTrue(body.isNull("failure"));
        assertFalse(body.containsKey("sample"));
        assertEquals(2, body.getInt("count"));
    }

    @Test
    void aHostileSampleIsAJsonStringNotStructure() {
        JsonObject body = json(NoticeBody.of(dead(1, HOSTILE + "\",\"count\":0,\"x\":\""), NoticeBody.Format.JSON,
                LINK, true));

        assertEquals(1, body.getInt("count"));
        assertFalse(body.containsKey("x"));
        assertTrue(body.getString("sample").startsWith("<!channel>"), "data, as it was: " + body);
    }

    @Test
    void theSlackTextEscapesWhatASenderWroteSoItCanNeitherMentionNorLink() {
        JsonObject body = json(NoticeBody.of(dead(200, HOSTILE), NoticeBody.Format.SLACK, LINK, true));

        String text = body.getString("text");
        assertTrue(text.startsWith("Hookstile: 200 events of source *gh* died (permanent failure) between "
                + "2026-11-25T10:00:01Z and 2026-11-25T10:00:59Z."), text);
        assertTrue(text.contains("&lt;!channel&gt; &lt;@U024BE7LH&gt; &lt;https://evil.example|click&gt; &amp; "
                + "'code'"), text);
        String withoutOurLink = text.substring(0, text.lastIndexOf(" <"));
        assertFalse(withoutOurLink.contains("<") || withoutOurLink.contains(">"), text);
        assertTrue(text.endsWith(" <" + LINK + "|Dead events>"), text);
        assertEquals(200, body.getInt("count"), "the JSON fields are there too");
        assertFalse(body.getBoolean("unfurl_links"));
    }

    @Test
    void aSlackTextOffersNoLinkItCannotFollow() {
        String text = json(NoticeBody.of(dead(1, null), NoticeBody.Format.SLACK, "/console/#/dead?source=gh", false))
                .getString("text");

        assertEquals("Hookstile: 1 event of source *gh* died (permanent failure) at 2026-11-25T10:00:01Z.", text);
    }

    @Test
    void aLinkWithAmpersandsOrABarStaysOneLink() {
        String text = NoticeBody.slackText(dead(1, null), "https://h.example/console/?a=1&b=2|3#/dead?source=gh");

        assertTrue(text.endsWith("<https://h.example/console/?a=1&amp;b=2%7C3#/dead?source=gh|Dead events>"), text);
    }

    @Test
    void everyTypeReadsAsASentence() {
        Instant since = WINDOW.minusSeconds(600);
        String behind = NoticeBody.slackText(new Notice(Notice.Type.PROCESSING_BEHIND, "gh", null, 42, since, WINDOW,
                WINDOW, null), null);
        String caughtUp = NoticeBody.slackText(new Notice(Notice.Type.PROCESSING_CAUGHT_UP, "gh", null, 0, since,
                WINDOW, WINDOW, null), null);
        String closed = NoticeBody.slackText(new Notice(Notice.Type.BREAKER_CLOSED, "fwd", null, 1, WINDOW, WINDOW,
                WINDOW, null), null);

        assertEquals("Hookstile: Processing of source *gh* is behind: 42 events waiting, the oldest since "
                + "2026-11-25T09:50:00Z.", behind);
        assertEquals("Hookstile: Processing of source *gh* caught up at 2026-11-25T10:00:00Z (behind since "
                + "2026-11-25T09:50:00Z).", caughtUp);
        assertEquals("Hookstile: The destination of source *fwd* answers again: its circuit breaker closed at "
                + "2026-11-25T10:00:00Z.", closed);
    }
}
