package dev.hookstile.events.entity;

import jakarta.persistence.Basic;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A body several events share, stored once under its SHA-256: the events of one Meta delivery each refer to it
 * instead of carrying a copy ({@link ReceivedEvent#getPayload()} reads through). The retention deletes it with the
 * last event that uses it.
 */
@Entity
@Table(name = "event_body")
public class EventBody {


    private static final HexFormat HEX = HexFormat.of();

    @Id
    private String digest;

    @Basic(fetch = FetchType.LAZY)
    private byte[] body;

    /** The key a body is stored under: its SHA-256, in hex. */
    public static String digestOf(byte[] body) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    }

    public String getDigest() {
        return digest;
    }

    public byte[] getBody() {
        return body;
    }
}
