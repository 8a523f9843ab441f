"""``gamenight serve`` with a database or Redis it cannot use: one line naming the option.

It used to print 'gamenight is serving on ...' and then a driver's traceback in a JSON log line
ending in uvicorn's 'Application startup failed. Exiting.'"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from services import Postgres, ServerProcess, free_port


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "gamenight.cli", "serve", "--port", str(free_port()), *args]
    return subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)


def one_line_error(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode != 0
    assert "serving on" not in run.stdout  # it never claimed to serve
    assert "Traceback" not in run.stdout + run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    return lines[0]


def test_a_postgresql_database_that_does_not_exist(tmp_path: Path, postgres: Postgres) -> None:
    from sqlalchemy.engine import make_url

    given = make_url(postgres.url).set(password="hunter2", database="no_such_gamenight_db")
    url = given.render_as_string(hide_password=False)
    said = one_line_error(serve(tmp_path, "--database-url", url))
    assert said.startswith(f"error: --database-url postgresql://{given.username}:***@")
    assert 'database "no_such_gamenight_db" does not exist' in said
    assert "hunter2" not in said  # the password is never printed


def test_a_database_server_that_is_not_running(tmp_path: Path) -> None:
    url = f"postgresql://gamenight@127.0.0.1:{free_port()}/gamenight"
    said = one_line_error(serve(tmp_path, "--database-url", url))
    assert said.startswith(f"error: --database-url {url}: cannot open it:")


def test_a_sqlite_file_in_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    said = one_line_error(serve(tmp_path, "--database-url", f"sqlite:///{tmp_path}/no/dir/g.db"))
    assert "unable to open database file" in said


def test_a_database_gamenight_has_no_driver_for(tmp_path: Path) -> None:
    said = one_line_error(serve(tmp_path, "--database-url", "mysql://x@localhost/db"))
    assert "driver" in said and "postgresql://" in said


def test_a_redis_that_is_not_running_or_not_redis(tmp_path: Path) -> None:
    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    said = one_line_error(serve(tmp_path, "--redis-url", url))
    assert said.startswith("error: --redis-url redis://:***@127.0.0.1:") and "hunter2" not in said
    assert "cannot reach it" in said
    said = one_line_error(serve(tmp_path, "--redis-url", "http://127.0.0.1:6379"))
    assert "redis://" in said


def test_a_second_process_on_one_postgresql_database_needs_redis(
    tmp_path: Path, pg_database: str, redis_url: str
) -> None:
    """Two processes on one database without --redis-url each kept their own copy of every
    table: a table started through one stayed 'waiting' on the other for good."""
    first = ServerProcess(tmp_path, pg_database).start()
    try:
        said = one_line_error(serve(tmp_path, "--database-url", pg_database))
        assert "another gamenight serve is using this database" in said
        assert "--redis-url" in said
        said = one_line_error(
            serve(tmp_path, "--database-url", pg_database, "--redis-url", redis_url)
        )
        assert "another gamenight serve without --redis-url is using this database" in said
    finally:
        first.stop()
    # processes that all share through Redis may run side by side
    one = ServerProcess(tmp_path, pg_database, "--redis-url", redis_url).start()
    two = ServerProcess(tmp_path, pg_database, "--redis-url", redis_url).start()
    try:
        assert one.get("/healthz").status_code == two.get("/healthz").status_code == 200
        said = one_line_error(serve(tmp_path, "--database-url", pg_database))
        assert "another gamenight serve is using this database" in said
    finally:
        one.stop()
        two.stop()
    # and once they are gone, one process alone is fine again
    alone = ServerProcess(tmp_path, pg_database).start()
    alone.stop()
