package dev.hookstile.bench;

import java.security.SecureRandom;
import java.util.List;

/** The command line, parsed; {@link #HELP} says what each option means. */
final class Options {

    static final String HELP = """
            usage: java -jar hookstile-load.jar <mode> [options]

            Sends GitHub push deliveries (a ~732-byte JSON body carrying the delivery id; Content-Type,
            X-GitHub-Event: push, X-GitHub-Delivery: <id>, X-Hub-Signature-256: sha256=<HMAC-SHA256(secret, body)>)
            to POST <path> over HTTP/1.1 keep-alive connections (raw sockets, one thread per connection).

            modes:
              closed   --connections N connections, each sending back to back for --seconds (after --warmup
                       seconds that are not recorded). New ids <prefix><n>.
              dup      like closed, but every request carries the same id (--id, default <prefix>dup). It is sent
                       first until answered 200 (processed and known), up to 60 s.
              storm    --group G connections (default 10) send the same new id at the same moment, wait for all G
                       answers, then the next id. Reports how many repeats were answered 200 duplicate vs 202.
              open     offered rate --rate R for --seconds: request i is scheduled at t0 + i/R and its latency runs
                       from that scheduled time to the end of its answer (no coordinated omission). A pool of up
                       to --connections C (default 64) workers takes the scheduled requests in order; when all are
                       busy a request waits, and the wait counts in its latency.
              receive  a destination for forwarded events: listens on 127.0.0.1:--port and answers every request
                       204, until stopped (SIGTERM); then prints RESULT mode=receive requests=<n>.

            options:
              --host H           server host (127.0.0.1)
              --port P           server port (8080)
              --path P           request path (/webhooks/bench); /bench/bare for the bare endpoint
              --secret S         the source's GitHub secret (hookstile-bench-secret)
              --connections N    connections (closed, dup: 16; open: 64)
              --group G          storm: copies of each id sent at once (10)
              --seconds D        recorded duration (20)
              --warmup W         seconds run first and not recorded (0)
              --rate R           open: offered requests per second (500)
              --prefix P         id prefix (random, e.g. 3f9a1c2e-); ids are <prefix><counter>
              --id ID            dup: the one id (<prefix>dup)
              --timeout-ms T     socket connect and read timeout (30000)
              --slow-ms S        also print, on stderr after the run, each recorded request slower than S ms:
                                 SLOW due=<ms after the first request was due> ms=<latency> at=<when it was due, UTC>
              --help

            output: a progress line per second on stderr (t=<s> rate=<answers in that second> ...), then ONE line
            on stdout:
              RESULT mode=... requests=<answers recorded> seconds=<recorded span> rate=<requests/s>
                     p50= p90= p99= p999= max= mean= (ms) s2xx= s200= s202= other= errors= cpu_ms=<this JVM's CPU>
                     [other_codes=<status>:<n>,...] [mode-specific fields]
              storm adds ids=, repeats= (requests - ids), dup_fraction= (s200 / repeats);
              open adds offered=, scheduled=, unsent= (not sent within 30 s after the end: counted as errors);
              dup adds id= and known=.
            errors are I/O failures and timeouts (the connection is then re-opened); other is any answer outside 2xx.
            """;

    String mode;
    String host = "127.0.0.1";
    int port = 8080;
    String path = "/webhooks/bench";
    String secret = "hookstile-bench-secret";
    int connections = -1;
    int group = 10;
    double seconds = 20;
    double warmup = 0;
    double rate = 500;
    String prefix;
    String id;
    int timeoutMs = 30_000;
    double slowMs;

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.print(HELP);
                System.exit(0);
            }
            if (!a.startsWith("--")) {
                if (o.mode != null) {
                    usage("unexpected argument: " + a);
                }
                o.mode = a;
                continue;
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else {
                if (i + 1 >= args.length) {
                    usage("missing value for --" + name);
                }
                value = args[++i];
            }
            try {
                switch (name) {
                    case "host" -> o.host = value;
                    case "port" -> o.port = Integer.parseInt(value);
                    case "path" -> o.path = value;
                    case "secret" -> o.secret = value;
                    case "connections" -> o.connections = Integer.parseInt(value);
                    case "group" -> o.group = Integer.parseInt(value);
                    case "seconds" -> o.seconds = Double.parseDouble(value);
                    case "warmup" -> o.warmup = Double.parseDouble(value);
                    case "rate" -> o.rate = Double.parseDouble(value);
                    case "prefix" -> o.prefix = value;
                    case "id" -> o.id = value;
                    case "timeout-ms" -> o.timeoutMs = Integer.parseInt(value);
                    case "slow-ms" -> o.slowMs = Double.parseDouble(value);
                    default -> usage("unknown option --" + name);
                }
            } catch (NumberFormatException e) {
                usage("not a number for --" + name + ": " + value);
            }
        }
        if (o.mode == null) {
            usage("no mode given");
        }
        if (!List.of("closed", "dup", "storm", "open", "receive").contains(o.mode)) {
            usage("unknown mode: " + o.mode);
        }
        if (o.connections < 0) {
            o.connections = o.mode.equals("open") ? 64 : 16;
        }
        if (o.prefix == null) {
            byte[] random = new byte[4];
            new SecureRandom().nextBytes(random);
            o.prefix = Client.hex(random) + "-";
        }
        if (o.id == null) {
            o.id = o.prefix + "dup";
        }
        if (o.connections < 1 || o.group < 1 || o.seconds <= 0 || o.warmup < 0 || o.rate <= 0) {
            usage("connections, group, seconds and rate must be positive");
        }
        return o;
    }

    static void usage(String problem) {
        System.err.println("hookstile-load: " + problem);
        System.err.print(HELP);
        System.exit(2);
    }
}
