"""The deployment files (Dockerfile, compose.yaml) agree with the CLI and the package.

No Docker engine runs here, so the image is not built; what it stands on is checked instead:
every ``gamenight serve`` they run parses with the real CLI, the proxy reaches every server
process, and the wheel the image installs (a plain, non-editable install) holds the web pages
and the migrations the server reads at run time.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import yaml
from typer.main import get_command

from gamenight.cli import app

ROOT = Path(__file__).parent.parent


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def parse_serve(argv: list[str]) -> dict[str, Any]:
    """``gamenight serve ARGS`` as the CLI reads it (click raises on an unknown option)."""
    assert argv[:2] == ["gamenight", "serve"], argv
    serve = get_command(app).commands["serve"]  # type: ignore[attr-defined]
    return serve.make_context("serve", argv[2:]).params


def test_every_compose_server_parses_and_shares_postgres_and_redis() -> None:
    services = compose()["services"]
    apps = {name: s for name, s in services.items() if "gamenight serve" in str(s.get("command"))}
    assert len(apps) >= 2, "several processes, or Redis has nothing to share"
    for s in apps.values():
        params = parse_serve(shlex.split(s["command"]))
        assert params["host"] == "0.0.0.0" and params["port"] == 8000
        assert params["database_url"].startswith("postgresql://")
        assert params["redis_url"].startswith("redis://")
        assert s["build"] == "."
        assert s["environment"]["FORWARDED_ALLOW_IPS"]  # each player's own address is limited
        assert {"db", "redis"} <= set(s["depends_on"])


def test_the_proxy_reaches_every_server_process() -> None:
    services = compose()["services"]
    apps = {name for name, s in services.items() if "gamenight serve" in str(s.get("command"))}
    proxy = shlex.split(services["proxy"]["command"])
    upstreams = {proxy[i + 1] for i, word in enumerate(proxy) if word == "--to"}
    assert upstreams == {f"{name}:8000" for name in apps}
    assert "--change-host-header" not in proxy  # the Origin check compares it with Host


def test_the_dockerfile_serves_with_the_drivers_compose_asks_for() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    install = next(line for line in lines if line.startswith("RUN pip install"))
    assert "'.[postgres,redis]'" in install
    cmd = json.loads(next(line for line in lines if line.startswith("CMD ")).removeprefix("CMD "))
    assert parse_serve(cmd)["host"] == "0.0.0.0"
    copied = {line.split()[1] for line in lines if line.startswith("COPY ")}
    assert {"pyproject.toml", "src"} <= copied
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert ".git" in ignored and not ({"src", "pyproject.toml", "README.md"} & ignored)


def test_the_wheel_holds_the_pages_and_the_migrations(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("gamenight-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    web = ROOT / "src" / "gamenight" / "web"
    pages = {f"gamenight/{p.relative_to(web.parent).as_posix()}" for p in web.rglob("*.*")}
    assert pages and pages <= names
    migrations = ROOT / "src" / "gamenight" / "server" / "migrations"
    kept = {
        f"gamenight/server/{p.relative_to(migrations.parent).as_posix()}"
        for p in migrations.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert any(k.endswith(".py") and "/versions/" in k for k in kept)
    assert kept <= names


def test_the_nginx_example_keeps_the_port_and_sets_the_players_address() -> None:
    """nginx's ``$host`` drops the port (every browser WebSocket then fails the Origin check
    with 4403 on a proxy at :8000), and ``$proxy_add_x_forwarded_for`` appends to what the
    client sent (with FORWARDED_ALLOW_IPS=* a made-up address per request beats the limit)."""
    text = (ROOT / "docs" / "serve.md").read_text()
    block = text.split("```nginx\n", 1)[1].split("```", 1)[0]
    directives = [line.split("#")[0].split() for line in block.splitlines()]
    headers = {d[1]: d[2].rstrip(";") for d in directives if d[:1] == ["proxy_set_header"]}
    assert headers["Host"] == "$http_host"
    assert headers["X-Forwarded-For"] == "$remote_addr"
    assert headers["Upgrade"] == "$http_upgrade" and headers["Connection"] == "$connection_upgrade"
    assert ["proxy_http_version", "1.1;"] in directives
    assert "Host $host" not in text
