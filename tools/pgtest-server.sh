#!/usr/bin/env bash
# A private PostgreSQL 15 server for the tests (issue 31): a throwaway cluster in /tmp, TLS with a
# CA made for this run, scram-sha-256, on a random free port on 127.0.0.1.
#   tools/pgtest-server.sh start DIR      start one; record in DIR how the tests reach it
#   tools/pgtest-server.sh stop DIR       stop the one recorded in DIR and remove its data
#   tools/pgtest-server.sh standby PRIMARY DIR
#                                         start a hot standby of the server recorded in PRIMARY
#                                         (pg_basebackup -R, streaming replication) and record it in
#                                         DIR as start does; stop DIR stops it
#   tools/pgtest-server.sh pause DIR      stop the server recorded in DIR, keeping its data and port
#   tools/pgtest-server.sh resume DIR     start it again (a server restart, as clients see one)
#   tools/pgtest-server.sh run DIR CMD..  run CMD (a test's PostgreSQL half) when a server is
#                                         recorded in DIR; otherwise say why and exit 77 (skip)
#   tools/pgtest-server.sh check          exit 0 when everything `start` needs is installed, else
#                                         name what is missing and exit 77
# DIR (the build tree's pgtest/) then holds: uri (no password in it), pgpass (0600, libpq's
# format), superuser, datadir, bin, ca.crt and server.log (a link to the live log; a copy after stop).
# `start` exits 77 with one line naming the missing Debian package when PostgreSQL 15 or Qt's
# PostgreSQL driver is not installed. PostgreSQL refuses to run as root: as root, the server runs as
# the `postgres` account the Debian package creates.
# PB_PG_BIN overrides the server's bin directory, PB_QT_PLUGIN_DIR Qt's plugin directory.
set -euo pipefail

pg_bin=${PB_PG_BIN:-/usr/lib/postgresql/15/bin}
test_role=pbtest
super_role=pbadmin

say() { echo "pgtest-server: $*" >&2; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
random_hex() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }

# Runs a server tool as the account that owns the cluster (never root), from a directory it may enter.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    (cd / && "$@")
  fi
}

# Percent-encodes a path for the query part of a URI.
uri_encode() {
  local s=$1 out='' c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case "$c" in
      [A-Za-z0-9/._~-]) out+=$c ;;
      *) out+=$(printf '%%%02X' "'$c") ;;
    esac
  done
  printf '%s' "$out"
}

qt_plugin_dir() {
  if [ -n "${PB_QT_PLUGIN_DIR:-}" ]; then
    echo "$PB_QT_PLUGIN_DIR"
    return
  fi
  local qtpaths
  for qtpaths in qtpaths6 /usr/lib/qt6/bin/qtpaths6 /usr/lib/qt6/bin/qtpaths; do
    if command -v "$qtpaths" >/dev/null 2>&1; then
      "$qtpaths" --query QT_INSTALL_PLUGINS && return
    fi
  done
  echo "/usr/lib/$(uname -m)-linux-gnu/qt6/plugins"
}

# Stops the server recorded in DIR (if any), keeps a copy of its log, removes its data.
stop_recorded() {
  local dir=$1 data bin base pid
  [ -f "$dir/datadir" ] || return 0
  data=$(cat "$dir/datadir")
  bin=$(cat "$dir/bin" 2>/dev/null || echo "$pg_bin")
  base=$(dirname "$data")
  if [ -f "$data/postmaster.pid" ]; then
    if ! as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 -s stop 2>/dev/null &&
      ! as_owner "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 -s stop 2>/dev/null; then
      # pg_ctl itself is gone or hung: end the postmaster this script started, by its id.
      pid=$(head -n1 "$data/postmaster.pid" 2>/dev/null || true)
      if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
        say "pg_ctl could not stop the server; sending SIGQUIT to postmaster $pid"
        kill -QUIT "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
  fi
  if [ -f "$base/server.log" ]; then
    rm -f "$dir/server.log"
    cp "$base/server.log" "$dir/server.log" 2>/dev/null || true
  fi
  # Only ever a directory this script made.
  case "$(basename "$base")" in
    pbpg.*) [ "$(dirname "$base")" = /tmp ] && rm -rf "$base" ;;
  esac
  rm -f "$dir/uri" "$dir/pgpass" "$dir/superuser" "$dir/datadir" "$dir/bin" "$dir/ca.crt"
}

# Prints the missing prerequisite, if any, as one line.
missing_prerequisite() {
  if [ ! -x "$pg_bin/initdb" ] || [ ! -x "$pg_bin/pg_ctl" ] || [ ! -x "$pg_bin/postgres" ]; then
    echo "PostgreSQL 15 server not installed (no $pg_bin/initdb): install Debian package postgresql-15"
  elif [ ! -x "$pg_bin/psql" ]; then
    echo "PostgreSQL 15 client not installed (no $pg_bin/psql): install Debian package postgresql-client-15"
  elif [ ! -e "$(qt_plugin_dir)/sqldrivers/libqsqlpsql.so" ]; then
    echo "Qt PostgreSQL driver not installed (no $(qt_plugin_dir)/sqldrivers/libqsqlpsql.so): install Debian package libqt6sql6-psql"
  elif ! command -v openssl >/dev/null 2>&1; then
    echo "openssl not installed (needed for the server's TLS certificate): install Debian package openssl"
  elif [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root but there is no postgres account to run the server as (Debian package postgresql-15 creates it)"
  fi
}

# A CA and a certificate for localhost / 127.0.0.1 signed by it, valid for a week.
make_certificates() {
  local tls=$1
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 7 \
    -subj "/CN=Proofbench test CA $(random_hex 4)" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
    -keyout "$tls/ca.key" -out "$tls/ca.crt" 2>/dev/null
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \
    -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
  printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
    'extendedKeyUsage=serverAuth' 'subjectAltName=DNS:localhost,IP:127.0.0.1' >"$tls/server.ext"
  openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAcreateserial \
    -days 7 -extfile "$tls/server.ext" -out "$tls/server.crt" 2>/dev/null
  rm -f "$tls/ca.key" "$tls/server.csr" "$tls/ca.srl" # nothing else is ever signed with it
  chmod 600 "$tls/server.key"
}

# A port in 15000..32767 (below Linux's ephemeral range) that nothing answers on right now.
pick_port() {
  local port
  while :; do
    port=$((15000 + 0x$(random_hex 2) % 17768))
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
  done
  echo "$port"
}

# Starts the cluster in $data (log: $base/server.log) on a free port and sets port (the caller's
# local). A port free when picked may be taken before the server binds it: a few are tried. Exits
# with the log's tail when the server (named $1 in messages) does not start.
start_on_free_port() {
  local what=$1 attempt up=0
  for attempt in 1 2 3 4 5; do
    port=$(pick_port)
    sed -i "s/^port = [0-9]*\$/port = $port/" "$data/postgresql.conf"
    rm -f "$base/server.log"
    if as_owner "$pg_bin/pg_ctl" -D "$data" -l "$base/server.log" -w -t 60 -s start >/dev/null 2>&1; then
      up=1
      break
    fi
    if grep -q 'could not bind\|could not create any TCP/IP sockets\|Address already in use' "$base/server.log" 2>/dev/null; then
      say "port $port was taken (attempt $attempt); trying another"
      continue
    fi
    break
  done
  if [ "$up" -ne 1 ]; then
    say "the $what did not start; its log:"
    tail -n 30 "$base/server.log" >&2 2>/dev/null || true
    exit 1
  fi
}

start() {
  # base and data stay global: the EXIT trap below reads them.
  local dir=$1 t0 tls super_pw test_pw port
  t0=$(now_ms)
  stop_recorded "$dir"
  local missing
  missing=$(missing_prerequisite)
  if [ -n "$missing" ]; then
    say "$missing; the PostgreSQL half of the tests is skipped"
    exit 77
  fi

  base=$(mktemp -d /tmp/pbpg.XXXXXX)
  data=$base/data
  tls=$base/tls
  # Anything that fails from here on leaves nothing behind.
  start_dir=$dir
  trap 'rc=$?; if [ $rc -ne 0 ]; then say "start failed; cleaning up"; echo "$data" >"$start_dir/datadir"; echo "$pg_bin" >"$start_dir/bin"; stop_recorded "$start_dir"; fi' EXIT
  mkdir -p "$tls" "$base/sock"
  chmod 755 "$base"
  make_certificates "$tls"
  super_pw=$(random_hex 24)
  test_pw=$(random_hex 24)
  (umask 077 && printf '%s\n' "$super_pw" >"$base/pwfile")
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$base"; fi

  if ! as_owner "$pg_bin/initdb" -D "$data" -U "$super_role" --pwfile="$base/pwfile" -A scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 --no-sync --no-instructions >"$base/initdb.log" 2>&1; then
    say "initdb failed:"
    cat "$base/initdb.log" >&2
    exit 1
  fi
  rm -f "$base/pwfile"
  cat >>"$data/postgresql.conf" <<EOF

# Proofbench test server (tools/pgtest-server.sh)
listen_addresses = '127.0.0.1'
unix_socket_directories = '$base/sock'
ssl = on
ssl_cert_file = '$tls/server.crt'
ssl_key_file = '$tls/server.key'
password_encryption = scram-sha-256
# A throwaway cluster: no crash safety needed...
fsync = off
full_page_writes = off
# ...but commits stay synchronous: a standby sees a commit at once (later tests read replicas).
synchronous_commit = on
port = 5432
EOF
  cat >"$data/pg_hba.conf" <<EOF
# TYPE   DATABASE     USER  ADDRESS       METHOD
local    all          all                 scram-sha-256
hostssl  all          all   127.0.0.1/32  scram-sha-256
hostssl  replication  all   127.0.0.1/32  scram-sha-256
EOF
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$data/postgresql.conf" "$data/pg_hba.conf"; fi

  start_on_free_port server

  mkdir -p "$dir"
  echo "$data" >"$dir/datadir"
  echo "$pg_bin" >"$dir/bin"
  echo "$super_role" >"$dir/superuser"
  cp "$tls/ca.crt" "$dir/ca.crt"
  rm -f "$dir/server.log"
  ln -s "$base/server.log" "$dir/server.log"
  (
    umask 077
    rm -f "$dir/pgpass"
    for host in 127.0.0.1 localhost; do
      printf '%s:%s:*:%s:%s\n' "$host" "$port" "$test_role" "$test_pw"
      printf '%s:%s:*:%s:%s\n' "$host" "$port" "$super_role" "$super_pw"
    done >"$dir/pgpass"
  )
  # The tests' role, created over TLS with the run's CA (which proves both work); the password goes
  # through stdin, never a command line.
  if ! PGPASSFILE=$dir/pgpass "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 \
    "host=127.0.0.1 port=$port dbname=postgres user=$super_role sslmode=verify-full sslrootcert=$dir/ca.crt" \
    >/dev/null <<EOF; then
CREATE ROLE $test_role LOGIN CREATEDB CREATEROLE PASSWORD '$test_pw';
EOF
    say "could not create role $test_role"
    exit 1
  fi
  echo "postgresql://$test_role@127.0.0.1:$port/postgres?sslmode=verify-full&sslrootcert=$(uri_encode "$dir/ca.crt")" >"$dir/uri"
  trap - EXIT
  local owner
  owner=$(id -un)
  if [ "$(id -u)" -eq 0 ]; then owner=postgres; fi
  say "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (TLS, scram-sha-256)" \
    "as $owner, data in $data, started in $(($(now_ms) - t0)) ms"
}

standby() {
  local primary=$1 dir=$2 t0 pdata pbase pport port
  t0=$(now_ms)
  stop_recorded "$dir"
  if [ ! -f "$primary/datadir" ]; then
    say "no primary recorded in $primary"
    exit 1
  fi
  pdata=$(cat "$primary/datadir")
  pbase=$(dirname "$pdata")
  pport=$(sed -n 's/^port = \([0-9]*\)$/\1/p' "$pdata/postgresql.conf" | tail -n1)
  base=$(mktemp -d /tmp/pbpg.XXXXXX)
  data=$base/data
  start_dir=$dir
  trap 'rc=$?; if [ $rc -ne 0 ]; then say "standby failed; cleaning up"; echo "$data" >"$start_dir/datadir"; echo "$pg_bin" >"$start_dir/bin"; stop_recorded "$start_dir"; fi' EXIT
  chmod 755 "$base"
  mkdir -p "$base/sock"
  (umask 077 && cp "$primary/pgpass" "$base/pgpass")
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$base"; fi
  # The whole cluster, streamed with its WAL, as the superuser over TLS; -R makes it a standby.
  if ! as_owner env PGPASSFILE="$base/pgpass" "$pg_bin/pg_basebackup" -D "$data" -R -X stream --checkpoint=fast --no-sync \
    -d "host=127.0.0.1 port=$pport user=$super_role sslmode=verify-full sslrootcert=$pbase/tls/ca.crt" \
    >"$base/basebackup.log" 2>&1; then
    say "pg_basebackup failed:"
    cat "$base/basebackup.log" >&2
    exit 1
  fi
  cat >>"$data/postgresql.conf" <<CONF

# Hot standby of the server on port $pport (tools/pgtest-server.sh standby)
unix_socket_directories = '$base/sock'
hot_standby = on
primary_conninfo = 'host=127.0.0.1 port=$pport user=$super_role passfile=$base/pgpass sslmode=verify-full sslrootcert=$pbase/tls/ca.crt'
port = 5432
CONF
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$data/postgresql.conf"; fi
  start_on_free_port standby
  mkdir -p "$dir"
  echo "$data" >"$dir/datadir"
  echo "$pg_bin" >"$dir/bin"
  cp "$primary/superuser" "$dir/superuser"
  cp "$primary/ca.crt" "$dir/ca.crt"
  rm -f "$dir/server.log"
  ln -s "$base/server.log" "$dir/server.log"
  (
    umask 077
    sed "s/^\([^:]*\):$pport:/\1:$port:/" "$primary/pgpass" >"$dir/pgpass"
  )
  sed "s/127.0.0.1:$pport/127.0.0.1:$port/" "$primary/uri" >"$dir/uri"
  trap - EXIT
  say "hot standby of 127.0.0.1:$pport on 127.0.0.1:$port, data in $data, started in $(($(now_ms) - t0)) ms"
}

pause() {
  local dir=$1 data bin
  [ -f "$dir/datadir" ] || { say "no server recorded in $dir"; exit 1; }
  data=$(cat "$dir/datadir")
  bin=$(cat "$dir/bin" 2>/dev/null || echo "$pg_bin")
  as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 -s stop
}

resume() {
  local dir=$1 data bin
  [ -f "$dir/datadir" ] || { say "no server recorded in $dir"; exit 1; }
  data=$(cat "$dir/datadir")
  bin=$(cat "$dir/bin" 2>/dev/null || echo "$pg_bin")
  # The same port as before (postgresql.conf keeps it): clients reconnect to where they were.
  as_owner "$bin/pg_ctl" -D "$data" -l "$(dirname "$data")/server.log" -w -t 60 -s start >/dev/null
}

stop() {
  local dir=$1 t0
  t0=$(now_ms)
  if [ ! -f "$dir/datadir" ]; then
    say "no server recorded in $dir"
    return 0
  fi
  stop_recorded "$dir"
  say "stopped in $(($(now_ms) - t0)) ms"
}

# Runs a test's PostgreSQL half, or skips it (77) when no server is recorded. A test that itself
# exits 77 (Qt Test's exit code is its number of failures) is reported as a failure, not a skip.
run() {
  local dir=$1 rc=0
  shift
  if [ ! -s "$dir/uri" ]; then
    say "no PostgreSQL test server recorded in $dir (pgserver.start skipped or not run): skipping $(basename "$1") on PostgreSQL"
    exit 77
  fi
  "$@" || rc=$?
  if [ "$rc" -eq 77 ]; then
    say "$(basename "$1") exited 77 (77 failures): reported as a failure"
    exit 1
  fi
  exit "$rc"
}

usage() {
  echo "usage: tools/pgtest-server.sh start DIR | stop DIR | pause DIR | resume DIR | standby PRIMARY_DIR DIR | run DIR COMMAND [ARGS...] | check" >&2
  exit 2
}

if [ "${1:-}" = check ]; then
  missing=$(missing_prerequisite)
  [ -z "$missing" ] || { say "$missing"; exit 77; }
  exit 0
fi
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
shift 2
case "$cmd" in
  start)
    mkdir -p "$dir"
    start "$(cd "$dir" && pwd)"
    ;;
  stop) stop "$dir" ;;
  pause) pause "$dir" ;;
  resume) resume "$dir" ;;
  standby)
    [ $# -ge 1 ] || usage
    mkdir -p "$1"
    standby "$(cd "$dir" && pwd)" "$(cd "$1" && pwd)"
    ;;
  run)
    [ $# -ge 1 ] || usage
    run "$dir" "$@"
    ;;
  *) usage ;;
esac
