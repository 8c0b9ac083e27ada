package dev.hookstile.operator.control;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The client addresses the operator API answers ({@code hookstile.admin.allowed-addresses}): comma-separated
 * addresses and CIDR blocks, IPv4 and IPv6 ({@code 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8}); unset or blank: every
 * address. Only literals: a host name would make each check a DNS lookup and the list as trustworthy as DNS.
 */
public final class AddressAllowlist {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private record Block(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int whole = prefix / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest) & 0xff;
            return (address[whole] & mask) == (network[whole] & mask);
        }
    }

    private final List<Block> blocks;
    private final String description;

    private AddressAllowlist(List<Block> blocks, String description) {
        this.blocks = blocks;
        this.description = description;
    }

    /** @throws IllegalArgumentException for an entry that is not an address or CIDR block, naming it */
    public static AddressAllowlist parse(Optional<String> setting) {
        String value = setting.map(String::trim).orElse("");
        if (value.isEmpty()) {
            return new AddressAllowlist(null, "every address");
        }
        List<Block> blocks = new ArrayList<>();
        for (String raw : value.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            blocks.add(block(entry));
        }
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException("'" + value + "' names no address");
        }
        return new AddressAllowlist(List.copyOf(blocks), value);
    }

    public boolean allowsAll() {
        return blocks == null;
    }

    /** Whether the client address (as the container reports it, a literal) is in the list. */
    public boolean allows(String address) {
        if (blocks == null) {
            return true;
        }
        byte[] bytes = literal(address);
        if (bytes == null) {
            return false;
        }
        for (Block block : blocks) {
            if (block.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return description;
    }

    private static Block block(String entry) {
        int slash = entry.indexOf('/');
        String address = slash < 0 ? entry : entry.substring(0, slash).trim();
        byte[] bytes = literal(address);
        if (bytes == null) {
            throw new IllegalArgumentException("'" + entry + "' is not an IP address or CIDR block (literals only, "
                    + "e.g. 10.0.0.0/8 or fd00::/8)");
        }
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(entry.substring(slash + 1).trim());
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("'" + entry + "' has a prefix length outside 0.." + bits);
            }
        }
        return new Block(bytes, prefix);
    }

    /** The address's bytes (IPv4-mapped IPv6 as IPv4), or {@code null} when it is not a literal. */
    private static byte[] literal(String address) {
        if (address == null) {
            return null;
        }
        String text = address.startsWith("[") && address.endsWith("]")
                ? address.substring(1, address.length() - 1) : address;
        int zone = text.indexOf('%');
        if (zone >= 0) {
            text = text.substring(0, zone);
        }
        if (IPV4.matcher(text).matches()) {
            byte[] bytes = new byte[4];
            String[] parts = text.split("\\.");
            for (int i = 0; i < 4; i++) {
                int part = Integer.parseInt(parts[i]);
                if (part > 255) {
                    return null;
                }
                bytes[i] = (byte) part;
            }
            return bytes;
        }
        if (!IPV6.matcher(text).matches()) {
            return null;
        }
        try {
            // With a colon Java reads it as an IPv6 literal and never asks DNS; IPv4-mapped ones come back as IPv4.
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
