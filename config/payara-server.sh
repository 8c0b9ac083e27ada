#!/usr/bin/env bash
# Installs Hookstile on a running Payara Server 6 Full domain, or removes it: the asadmin commands of
# docs/deployment.md, in order. The integration test PayaraServerIT runs this very script.
#
#   config/payara-server.sh deploy       configure and deploy the ActiveMQ resource adapter, then the EAR
#   config/payara-server.sh undeploy    the reverse
#
# A deployment the application refuses (a setting to fix: each is a line naming the environment variable and the
# property) ends this script with exit status 2 and those lines; any other failed deployment with status 1. Either
# way hookstile-not-deployed.war takes its place, so that /health/ready answers 503 until a deploy succeeds.
#
# Environment:
#   PAYARA_HOME           the Payara Server installation (bin/asadmin)                              required
#   ASADMIN_OPTIONS       asadmin's own options, e.g. "--port 4848 --user admin --passwordfile pw"   none
#   HOOKSTILE_EAR         the application                       default: <repo>/ear/target/hookstile.ear
#   HOOKSTILE_RAR         the ActiveMQ Classic resource adapter  default: <repo>/config/target/runtime/activemq-rar.rar
#   HOOKSTILE_NOT_DEPLOYED_WAR  deployed when the EAR's deployment fails (a readiness check DOWN)
#                         default: <repo>/config/target/runtime/hookstile-not-deployed.war
#   HOOKSTILE_BROKER_URL  an external ActiveMQ broker (failover:(tcp://a:61616,tcp://b:61616)); unset: a persistent
#                         broker embedded in the adapter, its store under HOOKSTILE_BROKER_DIR
#   HOOKSTILE_BROKER_DIR  the embedded broker's directory (its KahaDB store)    required without HOOKSTILE_BROKER_URL
#   HOOKSTILE_BROKER_USER, HOOKSTILE_BROKER_PASSWORD (or HOOKSTILE_BROKER_PASSWORD_FILE)
#                         the external broker's credentials, for the resource adapter
#   HOOKSTILE_JDBC_DRIVER the PostgreSQL driver jar installed as a library of the domain
#                                                                             default: the one in the EAR's lib/
#   HOOKSTILE_BROKER_SEND_TIMEOUT_MS
#                         with an external broker: the bound on every wait for it, added to the adapter's ServerUrl
#                         as ./hookstile adds it (config/urls.sh)                               default: 3000
#
# Hookstile's own settings (HOOKSTILE_SOURCES, HOOKSTILE_DB_URL, ...) are read by the application from the domain's
# environment or its system properties (asadmin create-system-properties hookstile.sources=gh ...): see
# docs/deployment.md.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# redact and bounded_broker_url: the same as ./hookstile's, from one file.
# shellcheck source=config/urls.sh
source "$repo/config/urls.sh"
: "${PAYARA_HOME:?set PAYARA_HOME to the Payara Server installation}"
ear=${HOOKSTILE_EAR:-$repo/ear/target/hookstile.ear}
rar=${HOOKSTILE_RAR:-$repo/config/target/runtime/activemq-rar.rar}
# Deployed in Hookstile's place when its deployment fails: a readiness check that is DOWN, since the server's own
# /health/ready answers UP with no checks when no application is deployed (dev.hookstile.notdeployed.NotDeployed).
placeholder=${HOOKSTILE_NOT_DEPLOYED_WAR:-$repo/config/target/runtime/hookstile-not-deployed.war}
# The adapter's name: the application's connection factory, queue and MDBs name it (ContainerResources).
adapter=activemq-rar

asadmin() {
    # shellcheck disable=SC2086
    "$PAYARA_HOME/bin/asadmin" ${ASADMIN_OPTIONS:-} "$@"
}
say() { printf 'hookstile-payara-server: %s\n' "$*"; }
# asadmin property values separate properties with ':' and need '\' before ':' and '=' inside a value.
escape() { printf '%s' "$1" | sed -e 's/[:=]/\\&/g'; }

# The PostgreSQL driver as a library of the domain (its lib/, the common class loader), the same jar as the EAR's.
# In the EAR's lib/ alone, Payara's JDBC leak prevention initialises the driver again in the class loader it builds
# for each deployment, where it registers itself in DriverManager for good: every redeploy would keep one more copy of
# the application's libraries (RedeployIT). Loaded once by the domain, the EAR's copy is never loaded (its class
# loaders ask their parent first). The common class loader reads lib/ when the domain starts: adding it restarts the
# domain, once.
install_driver() {
    local jar=${HOOKSTILE_JDBC_DRIVER:-} work
    if [[ -z $jar ]]; then
        command -v unzip >/dev/null \
            || { echo "unzip takes the JDBC driver out of $ear: install it, or set HOOKSTILE_JDBC_DRIVER" >&2; exit 1; }
        local entry
        entry=$(unzip -Z1 "$ear" | grep -E '^lib/(org\.postgresql-)?postgresql-[0-9][^/]*\.jar$' | head -n 1 || true)
        [[ -n $entry ]] || { say "no PostgreSQL driver in $ear: none installed in the domain"; return 0; }
        work=$(mktemp -d)
        jar="$work/${entry#lib/}"
        unzip -p "$ear" "$entry" > "$jar"
    fi
    [[ -f $jar ]] || { echo "no JDBC driver at $jar" >&2; exit 1; }
    local name libraries
    name=$(basename "$jar")
    libraries=$(asadmin list-libraries)
    if grep -qxF "$name" <<< "$libraries"; then
        say "JDBC driver: $name, a library of the domain already"
    else
        # Another version of it, from an earlier release: one copy only on the common class path.
        local old
        for old in $(grep -E '^(org\.postgresql-)?postgresql-[0-9].*\.jar$' <<< "$libraries" || true); do
            asadmin remove-library "$old"
        done
        asadmin add-library --type common "$jar"
        restart_domain
        say "JDBC driver: $name, added to the domain's libraries (the domain restarted)"
    fi
    [[ -z ${work:-} ]] || rm -rf "$work"
}

# restart-domain restarts the domain asadmin talks to only when told its name (or, remotely, its host): without
# them it restarts (or starts) the local default domain.
restart_domain() {
    local location
    location=$(asadmin __locations | head -n 1)
    if [[ -d $location ]]; then
        asadmin restart-domain --domaindir "$(dirname "$location")" "$(basename "$location")"
    else
        asadmin restart-domain
    fi
}

deploy() {
    [[ -f "$ear" ]] || { echo "no EAR at $ear: build it with ./mvnw -DskipTests install" >&2; exit 1; }
    [[ -f "$rar" ]] || { echo "no resource adapter at $rar: build it with ./mvnw -DskipTests install" >&2; exit 1; }
    install_driver
    local properties
    if [[ -n "${HOOKSTILE_BROKER_URL:-}" ]]; then
        # A hung broker must not hold request threads without bound, here as on Payara Micro.
        local url
        url=$(bounded_broker_url "$HOOKSTILE_BROKER_URL")
        properties="ServerUrl=$(escape "$url")"
        local password=${HOOKSTILE_BROKER_PASSWORD:-}
        [[ -n "${HOOKSTILE_BROKER_PASSWORD_FILE:-}" ]] && password=$(< "$HOOKSTILE_BROKER_PASSWORD_FILE")
        if [[ -n "${HOOKSTILE_BROKER_USER:-}" || -n $password ]]; then
            # Stored in domain.xml by asadmin (keep that file owner-only); asadmin's command line shows it to local
            # users while the command runs: deploy from a host or account no one else uses (docs/deployment.md).
            properties="$properties:UserName=$(escape "${HOOKSTILE_BROKER_USER:-}"):Password=$(escape "$password")"
        fi
        say "broker: external, $(redact "$HOOKSTILE_BROKER_URL")${HOOKSTILE_BROKER_USER:+ as $HOOKSTILE_BROKER_USER}"
    else
        : "${HOOKSTILE_BROKER_DIR:?set HOOKSTILE_BROKER_DIR (where the embedded broker keeps its store) or HOOKSTILE_BROKER_URL}"
        # Owner-only: the store holds every acknowledged payload not yet processed.
        (umask 077 && mkdir -p "$HOOKSTILE_BROKER_DIR") && chmod go-rwx "$HOOKSTILE_BROKER_DIR"
        # hookstile:<dir>: the broker built by dev.hookstile.broker.EmbeddedBroker, shipped inside the adapter.
        properties="ServerUrl=$(escape "vm://localhost?create=false"):BrokerXmlConfig=$(escape "hookstile:$(cd "$HOOKSTILE_BROKER_DIR" && pwd)")"
        say "broker: embedded, persistent in $HOOKSTILE_BROKER_DIR"
    fi
    # A crash between an XA transaction's prepare and commit (a replay: database and broker) is resolved at the
    # next start, without an administrator.
    asadmin set configs.config.server-config.transaction-service.automatic-recovery=true
    # The adapter first, configured for the broker, then the application that uses it.
    asadmin delete-resource-adapter-config "$adapter" >/dev/null 2>&1 || true
    asadmin create-resource-adapter-config --property "$properties" "$adapter"
    asadmin deploy --force=true --type rar --name "$adapter" "$rar"
    # Payara's JTS resync thread starts with the first recovery and keeps the context class loader of the thread that
    # starts it for the life of the server: started here, from an admin command, it holds no deployment of Hookstile
    # (started by the application's first transaction, it kept the first deployment's class loaders: RedeployIT).
    asadmin recover-transactions server >/dev/null 2>&1 || true
    # A refused setting fails the deployment with one line per setting to fix (dev.hookstile.start.boundary.
    # SettingsValidation), inside asadmin's report of it: shown alone, as ./hookstile shows them, with exit status 2.
    asadmin undeploy hookstile-not-deployed >/dev/null 2>&1 || true
    local output status=0
    output=$(asadmin deploy --force=true --name hookstile "$ear" 2>&1) || status=$?
    if (( status != 0 )); then
        # A failed --force deployment leaves no Hookstile: the instance must not look ready to a load balancer.
        if asadmin deploy --force=true --name hookstile-not-deployed --contextroot /hookstile-not-deployed \
                "$placeholder" >/dev/null 2>&1; then
            say "/health/ready answers 503 (check hookstile DOWN) until a deploy succeeds"
        else
            say "WARNING: $placeholder could not be deployed: /health/ready may answer UP without Hookstile"
        fi
        local refused
        refused=$(printf '%s\n' "$output" | sed -e 's/\. Please see server\.log for more details\.$//' \
            | grep -E '^[A-Z][A-Z0-9_]* \([A-Za-z0-9][A-Za-z0-9._-]*\): ' | awk '!seen[$0]++' || true)
        if [[ -n $refused ]]; then
            while IFS= read -r line; do say "$line"; done <<< "$refused"
            say "not deployed: $(grep -c . <<< "$refused") setting(s) to fix, above (the domain's environment or its"
            say "system properties); the domain's server.log has the deployment's whole report"
            exit 2
        fi
        printf '%s\n' "$output" >&2
        say "not deployed: asadmin deploy failed (above; the domain's server.log has the whole report)"
        exit 1
    fi
    printf '%s\n' "$output"
    say "deployed: webhooks at /webhooks/<source>, the operator API at /api, health at /health"
}

undeploy() {
    asadmin undeploy hookstile-not-deployed >/dev/null 2>&1 || true
    asadmin undeploy hookstile || true
    asadmin undeploy "$adapter" || true
    asadmin delete-resource-adapter-config "$adapter" || true
}

case "${1:-}" in
    deploy) deploy ;;
    undeploy) undeploy ;;
    *) sed -n '2,26p' "$0" >&2; exit 2 ;;
esac
