#!/usr/bin/env bash
# A PostgreSQL server for the history store's tests: installs Debian's package when it is
# missing, starts its cluster (making one if there is none), and makes a role that may
# create databases (each test makes its own and drops it). Prints the line to eval:
#   eval "$(bash scripts/postgres-for-tests.sh)"   # then: bash scripts/test.sh
# The server listens on loopback only (Debian's default); the role's password is a test's.
set -euo pipefail
ROLE=plumb_test
PASSWORD=plumb-test-only
if ! command -v pg_lsclusters >/dev/null 2>&1; then
  echo "installing postgresql" >&2
  apt-get install -y -qq postgresql >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; }
fi
cluster=$(pg_lsclusters --no-header | head -1)
if [ -z "$cluster" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  pg_createcluster "$version" main >&2
  cluster=$(pg_lsclusters --no-header | head -1)
fi
read -r version name port status _ <<<"$cluster"
if [ "$status" != online ]; then
  pg_ctlcluster "$version" "$name" start >&2
fi
psql_admin() { su postgres -c "psql -p $port -qAtc \"$1\"" ; }
for _ in $(seq 1 30); do psql_admin 'SELECT 1' >/dev/null 2>&1 && break; sleep 1; done
if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != 1 ]; then
  psql_admin "CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD'" >&2
fi
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '$ROLE'")" != 1 ]; then
  su postgres -c "createdb -p $port -O $ROLE $ROLE" >&2
fi
echo "export PLUMB_TEST_POSTGRES=postgres://$ROLE:$PASSWORD@127.0.0.1:$port/$ROLE"
