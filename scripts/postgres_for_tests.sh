#!/usr/bin/env bash
# A PostgreSQL for the server tests (make test-postgres, .ci/run): prints the URL of one
# that answers on 127.0.0.1:5432 and exits 0; otherwise says why on stderr and exits 1.
# Uses a server that already answers (this project's machines run one); as root, starts
# Debian's postgresql when it is installed but stopped, and installs it when absent
# (then sets a password for the postgres role and creates the database `test`).
set -uo pipefail
URL_TRUST="postgresql+asyncpg://postgres@127.0.0.1:5432/test"
PASSWORD="shengji-tests"
URL_PASSWORD="postgresql+asyncpg://postgres:${PASSWORD}@127.0.0.1:5432/test"
PY="${PY:-python3}"

connects() {  # connects URL: a session opens (asyncpg, from the venv)
    "$PY" - "$1" <<'PYEOF' >/dev/null 2>&1
import asyncio, sys
import asyncpg
from sqlalchemy.engine import make_url
u = make_url(sys.argv[1])
async def main() -> None:
    conn = await asyncpg.connect(host=u.host, port=u.port, user=u.username,
                                 password=u.password, database=u.database, timeout=5)
    await conn.close()
asyncio.run(main())
PYEOF
}

answers() { "$PY" -c "import socket; socket.create_connection(('127.0.0.1', 5432), 2).close()" 2>/dev/null; }

for url in "$URL_TRUST" "$URL_PASSWORD"; do
    if connects "$url"; then echo "$url"; exit 0; fi
done

if [ "$(id -u)" -ne 0 ]; then
    echo "no PostgreSQL answers on 127.0.0.1:5432 (as postgres, database test), and only root may start one" >&2
    exit 1
fi
if ! answers; then
    if ! command -v pg_ctlcluster >/dev/null 2>&1; then
        if ! command -v apt-get >/dev/null 2>&1; then
            echo "no PostgreSQL on 127.0.0.1:5432 and no apt-get to install one" >&2
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null && apt-get install -y -qq postgresql >/dev/null \
            || { echo "could not install Debian's postgresql" >&2; exit 1; }
    fi
    service postgresql start >/dev/null 2>&1 || pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start >/dev/null 2>&1
    for _ in $(seq 30); do answers && break; sleep 1; done
fi
if ! answers; then
    echo "PostgreSQL did not start on 127.0.0.1:5432" >&2
    exit 1
fi
# A fresh Debian cluster: local sockets trust the postgres OS user; TCP asks a password.
su postgres -c "psql -qAt -c \"ALTER ROLE postgres PASSWORD '${PASSWORD}'\"" >/dev/null 2>&1
su postgres -c "psql -qAt -c 'CREATE DATABASE test'" >/dev/null 2>&1
for url in "$URL_TRUST" "$URL_PASSWORD"; do
    if connects "$url"; then echo "$url"; exit 0; fi
done
echo "PostgreSQL answers on 127.0.0.1:5432 but does not let postgres into the database test" >&2
exit 1
