"""simulate --backend ray as a new user meets it: no Ray, a wrong address, Ray's notices, Ctrl-C."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("numba", reason="kernels need the 'kernels' extra (numba)")

from gamenight.analysis import ray_backend  # noqa: E402
from gamenight.analysis import runner as sim  # noqa: E402
from gamenight.analysis.stats import Tally  # noqa: E402
from gamenight.cli import app  # noqa: E402

cli = CliRunner()


def one_line_error(result: Any, *words: str) -> None:
    """Exit 2, one error line naming the problem, and no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert len(result.output.strip().splitlines()) == 1, result.output
    for word in words:
        assert word in result.output, result.output


@pytest.fixture
def ray_here() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_backend_ray_without_the_cluster_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as without the extra
    result = cli.invoke(app, ["simulate", "shake", "--games", "10", "--backend", "ray"])
    one_line_error(result, "--backend ray needs Ray and Numba", "'.[cluster]'")


def test_backend_ray_without_ray_or_numba_names_the_cluster_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setitem(sys.modules, "numba", None)  # a bare install: neither is there
    # said "--backend ray runs kernels; the reference engine runs locally" (auto fell back)
    result = cli.invoke(app, ["simulate", "shake", "--games", "10", "--backend", "ray"])
    one_line_error(result, "--backend ray needs Ray and Numba", "'.[cluster]'")


def test_an_address_where_no_cluster_listens_is_refused_at_once() -> None:
    pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ["simulate", "shake", "--games", "10", "--backend", "ray"]
    # ray.init retried such an address for minutes, printing a warning every few seconds
    result = cli.invoke(app, [*args, "--address", f"127.0.0.1:{port}"])
    one_line_error(result, f"--address 127.0.0.1:{port}", "no Ray cluster answers there")


@pytest.fixture
def web_server() -> Iterator[str]:
    """A real HTTP server on loopback: what listens at Ray's dashboard port, for one."""
    import http.server
    import threading

    class Quiet(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # not on the CLI's stderr
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_an_address_where_something_else_listens_is_refused_at_once(web_server: str) -> None:
    pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    args = ["simulate", "shake", "--games", "10", "--backend", "ray", "--address", web_server]
    # ray.init retried a web server's address (the dashboard's, given by mistake) for minutes
    result = cli.invoke(app, args)
    one_line_error(result, f"--address {web_server}", "but not a Ray cluster", "6379")


def test_a_ray_address_in_the_environment_is_probed_too(
    web_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    monkeypatch.setenv("RAY_ADDRESS", web_server)  # Ray's own way to point at a cluster
    result = cli.invoke(app, ["simulate", "shake", "--games", "10", "--backend", "ray"])
    one_line_error(result, f"RAY_ADDRESS {web_server}", "but not a Ray cluster")


def test_an_address_where_a_listener_stays_silent_is_refused_after_the_probe() -> None:
    with socket.socket() as silent:  # accepts connections (the kernel's backlog) and says nothing
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(ValueError, match="no Ray cluster answers there"):
            ray_backend.probe(address, seconds=0.5)


def test_a_real_clusters_address_passes_the_probe(ray_here: Any) -> None:
    ray_backend.probe(ray_here.get_runtime_context().gcs_address)  # the CLI's own deadline


def test_rays_cluster_notices_go_to_stderr_cut_to_their_first_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    from ray._private.worker import print_to_stdstream  # how Ray prints a dead node's notice

    notice = "Raylet is terminated. Termination is unexpected.\n    [state-dump] 1 total\n"
    with ray_backend.notices_to_stderr():
        print_to_stdstream({"lines": [notice], "pid": "raylet", "is_err": False}, False)
    out, err = capsys.readouterr()
    assert out == ""  # stdout stays the --json object alone
    assert "Raylet is terminated" in err and "state-dump" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_run_that_started_ray_stops_it_and_matches_the_local_figures() -> None:
    ray = pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    assert not ray.is_initialized()
    games = 2 * sim.CHUNK + 5
    far = sim.run("gambler", games, seed=3, backend="ray", players=3)
    assert not ray.is_initialized()  # no driver left connected, no notices printed later
    assert far.tally == sim.run("gambler", games, seed=3, players=3).tally


def test_ctrl_c_collects_every_cancelled_task(
    ray_here: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = ray_here
    cancelled: list[Any] = []
    collected: list[Any] = []
    real_cancel, real_get = ray.cancel, ray.get

    def cancel(ref: Any, **kw: Any) -> Any:
        cancelled.append(ref)
        return real_cancel(ref, **kw)

    def get(ref: Any, **kw: Any) -> Any:
        collected.append(ref)
        return real_get(ref, **kw)

    def ctrl_c(done: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ray, "cancel", cancel)
    monkeypatch.setattr(ray, "get", get)
    run = sim.run("shake", 40 * sim.CHUNK, seed=1, backend="ray", progress=ctrl_c, players=2)
    assert run.interrupted and 0 < run.tally.games < 40 * sim.CHUNK
    # an error never collected is printed by Ray as a traceback after the figures
    assert cancelled and set(cancelled) <= set(collected)


def test_a_task_that_fails_on_a_node_is_one_line(ray_here: Any) -> None:
    args = ("no-such-game", {"players": 2}, 0, 10)
    with pytest.raises(ValueError, match="a Ray task failed") as e:
        ray_backend.run_chunks(sim._worker_batch, args, 1, Tally("shake", 2), None, None)
    assert "\n" not in str(e.value)


def test_ray_address_in_the_environment_is_joined_not_refused(ray_here: Any) -> None:
    # RAY_ADDRESS is how Ray's docs point a driver at a cluster; ray.init then refuses num_cpus
    # ("When connecting to an existing cluster, num_cpus ... must not be provided")
    env = {**os.environ, "RAY_ADDRESS": ray_here.get_runtime_context().gcs_address}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    args = ["simulate", "shake", "--games", "100", "--backend", "ray", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "gamenight.cli", *args], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert '"games": 100' in done.stdout


def test_a_cluster_lost_mid_run_keeps_the_figures_so_far(
    ray_here: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = ray_here
    real_get = ray.get
    calls: list[int] = []

    def get(ref: Any, **kw: Any) -> Any:  # the second result never comes: the head went away
        calls.append(1)
        if len(calls) == 2:
            raise ray.exceptions.LocalRayletDiedError()
        return real_get(ref, **kw)

    monkeypatch.setattr(ray, "get", get)
    args = ["simulate", "shake", "--games", str(40 * sim.CHUNK), "--backend", "ray", "--json"]
    result = cli.invoke(app, args)
    # it was a one-line error and every game already merged was lost (hours, on a big run)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    out = json.loads(result.stdout)
    assert out["interrupted"] and 0 < out["games"] < 40 * sim.CHUNK
    assert "lost a task" in out["stopped"] and "lost a task" in result.stderr


@pytest.fixture
def head_with_token() -> Iterator[tuple[str, str, dict[str, str]]]:
    """A real ``ray start --head`` with token authentication on a free port: its address, the
    file holding its token, and an environment with no token anywhere (an empty HOME)."""
    import secrets
    import shutil
    import signal
    import tempfile

    from services import wait_until

    pytest.importorskip("ray", reason="the 'cluster' extra (ray) is not installed")
    home = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # short: Ray's socket paths live under it
    token = os.path.join(home, "token")
    with open(token, "w") as f:
        f.write(secrets.token_hex(32))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["HOME"] = home
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    head = {**env, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": token}
    ray_cli = [sys.executable, "-c", "from ray.scripts.scripts import main; main()"]
    args = ["start", "--head", "--port", str(port), "--num-cpus", "1", "--block"]
    args += ["--include-dashboard=false", "--disable-usage-stats", "--temp-dir", f"{home}/r"]
    proc = subprocess.Popen(
        [*ray_cli, *args], env=head, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    address = f"127.0.0.1:{port}"

    def answers() -> bool:
        try:
            ray_backend.probe(address, seconds=2.0)
        except ValueError:
            assert proc.poll() is None, "ray start --head exited"
            return False
        return True

    try:
        wait_until(answers, timeout=300, what="the Ray head", poll=0.5)
        yield address, token, env
    finally:
        # the head, its GCS, raylet and workers share the group: a throw-away cluster is killed
        # at once (a graceful SIGTERM took 33 s of CI time) and its files removed with its home
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        shutil.rmtree(home, ignore_errors=True)


def test_a_head_started_with_token_authentication_is_joined_with_its_token(
    head_with_token: tuple[str, str, dict[str, str]],
) -> None:
    """Ray 2.60's ``ray start --head`` with authentication: the driver failed with
    InvalidAuthToken and a traceback. Set as Ray's docs say (RAY_AUTH_MODE=token, the token in
    the file RAY_AUTH_TOKEN_PATH names) the run joins; unset, one line says what to set."""
    address, token, env = head_with_token
    args = ["simulate", "shake", "--games", "2000", "--backend", "ray", "--address", address]
    cmd = [sys.executable, "-m", "gamenight.cli", *args, "--json"]
    given = {**env, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": token}
    done = subprocess.run(cmd, env=given, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2000
    refused = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    said = refused.stderr.strip().splitlines()[-1]
    assert said.startswith("error: --address") and "RAY_AUTH_MODE=token" in said
