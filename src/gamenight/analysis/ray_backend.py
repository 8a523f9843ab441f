"""The driver side of ``simulate --backend ray``: connect, farm chunks out, keep Ray quiet.

Ray prints its cluster notices (a node that died, with pages of its log) on the driver's
stdout, which would break ``--json``: while a run is on they go to stderr, cut to their first
line. A cancelled task's error is collected, so Ray does not print it as a traceback later.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .stats import Tally

IN_FLIGHT_PER_CPU = 16  # tasks submitted and not yet merged, per CPU of the cluster
PROBE_SECONDS = 5.0  # an address that does not answer in this long is refused
DRAIN_SECONDS = 10.0  # how long a Ctrl-C waits for cancelled tasks to report
INSTALL = "pip install -e '.[cluster]'"


class ClusterLost(Exception):
    """The cluster went away mid-run (its head, or every node): the figures so far stand."""


def has_ray() -> bool:
    """Whether the 'cluster' extra is installed (checked before a run, not in its middle)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


# A Ray cluster's address is its GCS, a gRPC server: like every HTTP/2 server it answers a
# client's connection preface with a SETTINGS frame (a 9-byte header whose fourth byte is 4).
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
SETTINGS = 4


def probe(address: str, seconds: float = PROBE_SECONDS, named: str = "--address") -> None:
    """Refuse a host:port where no Ray cluster answers: ray.init retries such an address for
    minutes, whether nothing listens there or something else does (Ray's dashboard, say)."""
    host, sep, port = address.rpartition(":")
    if "://" in address or not sep or not port.isdigit():
        return  # 'auto', ray://...: Ray's own checks say what is wrong
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds) as conn:
            if os.environ.get("RAY_USE_TLS", "0") not in ("", "0"):
                return  # the cluster speaks TLS first: the preface below would not reach gRPC
            conn.sendall(HTTP2_PREFACE)
            answer = conn.recv(9)
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        raise ValueError(
            f"{named} {address}: no Ray cluster answers there ({why}); "
            "start one with `ray start --head` or check the address it printed"
        ) from None
    if len(answer) >= 4 and answer[3] == SETTINGS:
        return
    raise ValueError(
        f"{named} {address}: something answers there, but not a Ray cluster; give the address "
        "`ray start --head` printed (port 6379 unless changed; 8265 is its dashboard)"
    )


def probe_given(address: str | None) -> None:
    """Probe the cluster a run will join: ``--address``, else Ray's own RAY_ADDRESS if set."""
    if address:
        probe(address)
    elif os.environ.get("RAY_ADDRESS"):
        probe(os.environ["RAY_ADDRESS"], named="RAY_ADDRESS")


# Ray 2.52 on: a cluster started with token authentication refuses a driver that does not send
# its token, and a driver joining an address sends one only with RAY_AUTH_MODE=token (Ray never
# sends a token found on disk to an address by itself: it might belong to another cluster)
TOKEN_HINT = (
    "if the cluster uses token authentication, set RAY_AUTH_MODE=token and give its token as "
    "RAY_AUTH_TOKEN, in a file named by RAY_AUTH_TOKEN_PATH, or in ~/.ray/auth_token "
    "(`ray get-auth-token` on the head prints it)"
)


def connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (or start Ray here); True if this call connected."""
    import ray

    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
    probe_given(address)
    if not address:
        ray.init(include_dashboard=False, **quiet)
        return True
    try:
        ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise ValueError(f"--address {address}: {first_line(e)}; {TOKEN_HINT}") from None
    return True


def first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class _Notices:
    """A stand-in stdout for Ray's notices: each one's first line, on stderr."""

    def write(self, text: str) -> int:
        head = text.split("\n", 1)[0]
        if head.strip():
            sys.stderr.write(head + "\n")
        return len(text)

    def flush(self) -> None:
        sys.stderr.flush()


@contextlib.contextmanager
def notices_to_stderr() -> Iterator[None]:
    with contextlib.redirect_stdout(_Notices()):
        yield


def task_failed(e: BaseException) -> str:
    """One line for a task that raised: what it raised, and what to install if it was an import."""
    cause = getattr(e, "cause", None)
    if not isinstance(cause, Exception):
        cause = e
    hint = f" (every node needs gamenight and its kernels: {INSTALL})"
    said = f"a Ray task failed: {type(cause).__name__}: {first_line(cause)}"
    return said + hint if isinstance(cause, ImportError) else said


def _drain(refs: list[Any]) -> None:
    """Cancel tasks and collect their errors, which Ray would otherwise print unasked."""
    import ray

    for ref in refs:
        ray.cancel(ref)
    ready, _ = ray.wait(refs, num_returns=len(refs), timeout=DRAIN_SECONDS)
    for ref in ready:
        with contextlib.suppress(Exception):
            ray.get(ref)


def run_chunks(task: Callable[..., Tally], args: tuple[Any, ...], chunks: int, tally: Tally,
               progress: Callable[[int], None] | None, address: str | None) -> None:  # fmt: skip
    """Merge ``task(*args, first, count)`` over every chunk, a few tasks a CPU in flight."""
    import ray

    started = connect(address)
    with notices_to_stderr():  # to the end of shutdown, which prints the notices it held back
        try:
            _farm(ray.remote(num_cpus=1)(task), args, chunks, tally, progress)
        finally:
            if started:
                ray.shutdown()


def _farm(remote: Any, args: tuple[Any, ...], chunks: int, tally: Tally,
          progress: Callable[[int], None] | None) -> None:  # fmt: skip
    import ray

    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # about 8 tasks a CPU: a worker that finishes early takes the next one, so the run ends
    # within a short task of the last; a task of up to 64 chunks keeps Ray's cost per task small
    per_task = max(1, min(64, chunks // (8 * cpus)))
    firsts = iter(range(0, chunks, per_task))

    def submit(count: int) -> list[Any]:
        return [
            remote.remote(*args, first, min(per_task, chunks - first))
            for first in itertools.islice(firsts, count)
        ]

    # at most a few tasks a CPU in flight: a run of 10**12 games is millions of tasks, which
    # Ray would otherwise hold queued at once
    pending = submit(IN_FLIGHT_PER_CPU * cpus)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            pending += submit(1)
            try:
                tally.merge(ray.get(ready[0]))
            except ray.exceptions.RayTaskError as e:
                raise ValueError(task_failed(e)) from None
            except ray.exceptions.RayError as e:
                raise ClusterLost(f"the Ray cluster lost a task: {first_line(e)}") from None
            if progress:
                progress(tally.games)
    except BaseException:
        _drain(pending)
        raise
