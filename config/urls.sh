# shellcheck shell=bash
# What both packagings' scripts do to URLs, defined once: ./hookstile (Payara Micro) and config/payara-server.sh
# (Payara Server) source this file, so that what they print of a URL and how long they let a hung broker hold a
# request cannot drift apart again. Sourced, never run; it sets no option of its caller.

# The names of options that carry a secret, any case (sed has no portable case-insensitive flag).
_urls_secret_names='[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Pp][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]'
_urls_secret_names+='|[Tt][Oo][Kk][Ee][Nn]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll][Ss]?'
_urls_secret_names+='|[Aa][Pp][Ii][_-]?[Kk][Ee][Yy]|[Aa][Cc][Cc][Ee][Ss][Ss][_-]?[Kk][Ee][Yy]'

# redact TEXT: what may be printed of a URL (or a text holding URLs): user:password@, query strings and fragments,
# and password=-like options outside a query (jdbc:sqlserver://h;pwd=x) hidden as ***. The application's rules
# (dev.hookstile.platform.Redacted.url), checked against the same table of cases: LauncherRedactionTest runs this
# function over RedactedTest's redaction-cases.tsv.
redact() {
    printf '%s' "$1" | sed -E \
        -e 's%(://)[^/?#@[:space:],()]*@%\1***@%g' \
        -e 's%([?#])[^[:space:],()]+%\1***%g' \
        -e "s%((${_urls_secret_names})[[:space:]]*[=:][[:space:]]*)[^;&[:space:],()]+%\\1***%g"
}

# bounded_broker_url URL: an external broker's URL with every wait ActiveMQ leaves unbounded given a bound, so a
# broker that stops answering without closing its sockets (hung, frozen, a partition) gets 503 answers instead of
# holding the request threads: a send's, a connection's and a close's answer (jms.sendTimeout,
# jms.connectResponseTimeout, jms.closeTimeout), HOOKSTILE_BROKER_SEND_TIMEOUT_MS each (3000). Creating a producer
# waits with no bound at all: for a plain TCP or SSL URL the connection's inactivity limit
# (wireFormat.maxInactivityDuration) fails a connection that heard nothing within it (a failover URL sets this in its
# inner URLs). Options already in the URL win. Fails, saying why, for a bound that is no whole number above 0 (0
# would be no bound).
bounded_broker_url() {
    local url=$1 wait_ms=${HOOKSTILE_BROKER_SEND_TIMEOUT_MS:-3000} options option sep
    if [[ ! $wait_ms =~ ^[1-9][0-9]{0,8}$ ]]; then
        printf 'HOOKSTILE_BROKER_SEND_TIMEOUT_MS must be a whole number of milliseconds from 1 to 999999999\n' >&2
        return 1
    fi
    options="jms.sendTimeout jms.connectResponseTimeout jms.closeTimeout"
    [[ $url =~ ^(tcp|ssl|nio|nio\+ssl):// ]] && options="$options wireFormat.maxInactivityDuration"
    for option in $options; do
        if [[ $url != *"$option="* ]]; then
            if [[ $url == *\) || $url != *\?* ]]; then sep='?'; else sep='&'; fi
            url="$url$sep$option=$wait_ms"
        fi
    done
    printf '%s' "$url"
}
