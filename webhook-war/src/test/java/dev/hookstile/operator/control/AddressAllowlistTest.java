package dev.hookstile.operator.control;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddressAllowlistTest {

    @Test
    void unsetOrBlankAllowsEveryAddress() {
        for (Optional<String> setting : List.of(Optional.<String>empty(), Optional.of(""), Optional.of("  "))) {
            AddressAllowlist all = AddressAllowlist.parse(setting);
            assertTrue(all.allowsAll());
            assertTrue(all.allows("203.0.113.5"));
            assertTrue(all.allows("2001:db8::1"));
        }
    }

    @Test
    void addressesAndBlocksOfBothFamilies() {
        AddressAllowlist list = AddressAllowlist.parse(Optional.of(" 127.0.0.1 , 10.0.0.0/8,192.168.4.0/22, ::1, fd00::/8"));

        assertFalse(list.allowsAll());
        assertTrue(list.allows("127.0.0.1"));
        assertFalse(list.allows("127.0.0.2"));
        assertTrue(list.allows("10.255.1.2"));
        assertFalse(list.allows("11.0.0.1"));
        assertTrue(list.allows("192.168.7.255"));
        assertFalse(list.allows("192.168.8.0"));
        assertTrue(list.allows("0:0:0:0:0:0:0:1"));
        assertTrue(list.allows("[::1]"));
        assertTrue(list.allows("fd12:3456::9"));
        assertFalse(list.allows("fe80::1"));
        assertFalse(list.allows("2001:db8::1"));
        assertTrue(list.allows("::ffff:10.1.2.3"), "IPv4-mapped IPv6 is the IPv4 address");
        assertFalse(list.allows("not-an-address"));
        assertFalse(list.allows(null));
        assertFalse(list.allows(""));
    }

    @Test
    void zeroPrefixIsEveryAddressOfTheFamily() {
        AddressAllowlist list = AddressAllowlist.parse(Optional.of("0.0.0.0/0"));

        assertTrue(list.allows("203.0.113.5"));
        assertFalse(list.allows("2001:db8::1"));
    }

    @Test
    void anythingButALiteralIsRefusedNamingTheEntry() {
        for (String bad : new String[] {"localhost", "10.0.0.0/33", "::/129", "10.0.0.0/x", "300.1.1.1",
                "10.0.0.0/-1", ",", "example.org/24"}) {
            var refused = assertThrows(IllegalArgumentException.class,
                    () -> AddressAllowlist.parse(Optional.of(bad)), bad);
            assertTrue(refused.getMessage().contains(bad.equals(",") ? "names no address" : bad), refused.getMessage());
        }
    }
}
