"""`gamenight report`: one self-contained HTML page per game, every figure checked against
`odds --json` (or an independent calculation) by parsing the page."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("numba")
pytest.importorskip("matplotlib")

from gamenight.cli import app  # noqa: E402

runner = CliRunner()


class Cells(HTMLParser):
    """Every td's data-* attributes and text, and every img's src."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, str]] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self._open: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "td":
            self._open = {k.removeprefix("data-"): v for k, v in a.items()} | {"text": ""}
            self.cells.append(self._open)
        elif tag == "img":
            self.images.append(a["src"])
        elif tag in ("link", "script") and ("href" in a or "src" in a):
            self.links.append(a.get("href") or a.get("src", ""))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td":
            self._open = None


def parsed(path: Path) -> Cells:
    p = Cells()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def shown_pct(text: str) -> float:
    return float(text.split("%")[0].split("(")[-1].strip()) / 100


def test_casino_report_carries_every_figure_of_odds_json_for_the_tables_options(
    tmp_path: Path,
) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"payouts": {"craps2": "30:1", "field": "option-3"}}))
    out = tmp_path / "r.html"
    done = runner.invoke(app, ["report", "snake-eyes-casino", "--table", str(table),
                               "--out", str(out), "--rolls", "200000", "--seed", "2"])  # fmt: skip
    assert done.exit_code == 0, done.output
    odds = json.loads(
        runner.invoke(app, ["odds", "snake-eyes-casino", "--table", str(table), "--json"]).stdout
    )["table"]["wagers"]
    page = parsed(out)
    assert page.links == [] and len(page.images) >= 2  # self-contained: plots inline
    assert all(src.startswith("data:image/svg+xml;base64,") for src in page.images)
    by = {(c.get("wager"), c.get("key")): c for c in page.cells if "key" in c}
    for row in odds:
        w = row["wager"]
        assert by[(w, "pays")]["text"] == row["pays"]
        for key in ("win", "lose", "house_edge", "house_edge_per_roll"):
            c = by[(w, key)]
            assert Fraction(c["exact"]) == Fraction(row[key]), (w, key)
            assert shown_pct(c["text"]) == pytest.approx(float(Fraction(row[key])), abs=5e-7)
        # the spread, independently: pays n to 1 with chance win, loses 1 otherwise
        n = int(row["pays"].split(":")[0]) if ":" in row["pays"] else None
        if n is not None:
            win = Fraction(row["win"])
            mean = win * n - (1 - win)
            sd = math.sqrt(win * (n - mean) ** 2 + (1 - win) * (-1 - mean) ** 2)
            assert float(by[(w, "sd")]["exact"]) == pytest.approx(sd, rel=1e-12)
            assert Fraction(by[(w, "element_of_risk")]["exact"]) == Fraction(row["house_edge"])
        # hit frequency per roll: the decision's win chance times the chance a roll decides
        decided = Fraction(row["house_edge_per_roll"]) / Fraction(row["house_edge"])
        assert Fraction(by[(w, "hit_per_roll")]["exact"]) == Fraction(row["win"]) * decided
        # the simulation's interval holds the exact edge (and says so)
        obs, half = float(by[(w, "observed")]["exact"]), float(by[(w, "half_width")]["exact"])
        assert Fraction(by[(w, "exact")]["exact"]) == Fraction(row["house_edge"])
        within = abs(obs - float(Fraction(row["house_edge"]))) <= half
        assert by[(w, "within")]["text"] == ("yes" if within else "NO")
    assert by[(None, "payout_craps2")]["text"] == "30:1"
    # each outcome's chance per roll sums to one for every wager
    for row in odds:
        w = row["wager"]
        outs = [c for c in page.cells if c.get("wager") == w and c.get("key", "").startswith(
            ("wins", "loses", "stays"))]  # fmt: skip
        assert sum(Fraction(c["exact"]) for c in outs) == 1


def test_shake_and_snake_eyes_reports_show_the_odds_figures(tmp_path: Path) -> None:
    out = tmp_path / "shake.html"
    assert runner.invoke(app, ["report", "shake", "--out", str(out)]).exit_code == 0
    odds = json.loads(runner.invoke(app, ["odds", "shake", "--json"]).stdout)
    page = parsed(out)
    by = {(c.get("faces"), c.get("key")): c for c in page.cells if "faces" in c}
    for k, row in odds["scoring_faces"].items():
        assert by[(k, "crap_out_chance")]["exact"] == row["crap_out_chance"]
        stop = by[(k, "ev_stop_from_points")]
        assert int(stop["exact"]) % 10 == 0  # a total a player can hold
        assert int(stop["exact"]) >= float(by[(k, "ev_stop_at_points")]["exact"])
        assert float(by[(k, "ev_stop_at_points")]["exact"]) == row["ev_stop_at_points"]
    assert page.images and all(s.startswith("data:image/svg+xml") for s in page.images)
    out = tmp_path / "se.html"
    assert runner.invoke(app, ["report", "snake-eyes", "--out", str(out)]).exit_code == 0
    se = json.loads(runner.invoke(app, ["odds", "snake-eyes", "--json"]).stdout)
    cells = {c.get("key"): c for c in parsed(out).cells if "key" in c}
    t = se["one_player_throws_to_clear"]
    assert cells["mean_exact"]["exact"] == t["mean_exact"]
    for k in ("p50", "p90", "p99", "min"):
        assert cells[k]["text"] == str(t[k])


def test_report_refusals_name_the_flag(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"table_min": 600}))
    out = runner.invoke(app, ["report", "snake-eyes-casino", "--table", str(bad),
                              "--out", str(tmp_path / "r.html")])  # fmt: skip
    assert out.exit_code == 2 and f"--table {bad}" in out.stderr
    out = runner.invoke(app, ["report", "shake", "--table", str(bad)])
    assert out.exit_code == 2 and "--table" in out.stderr
    assert runner.invoke(app, ["report", "snap"]).exit_code == 2


def test_a_table_file_whose_limits_clash_names_its_keys(tmp_path: Path) -> None:
    """Was "option 'options': ...": now the file and both keys, with the values it holds."""
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"table_min": 600, "table_max": 500}))
    for argv in (["report", "snake-eyes-casino", "--out", str(tmp_path / "r.html")],
                 ["odds", "snake-eyes-casino"], ["simulate", "snake-eyes-casino"],
                 ["play", "snake-eyes-casino"]):  # fmt: skip
        out = runner.invoke(app, [*argv, "--table", str(table)])
        assert out.exit_code == 2, (argv, out.output)
        said = f"--table {table}: snake-eyes-casino: table_min (600) is more than table_max (500)"
        assert said in out.stderr and "'options'" not in out.stderr, (argv, out.stderr)
    assert not (tmp_path / "r.html").exists()


def test_labels_shake_stop_beside_break_even_and_simulate_names_option() -> None:
    text = runner.invoke(app, ["odds", "shake"], terminal_width=200).stdout
    assert "230 (227.8)" in text
    out = runner.invoke(app, ["simulate", "snake-eyes-casino", "--games", "3", "--option",
                              "table_min=600"])  # fmt: skip
    assert out.exit_code == 2
    said = "--option table_min=600: table_min (600) is more than table_max (500, the default)"
    assert said in out.stderr


def test_shake_report_gives_the_game_length_a_turn_exactly_and_a_game_within_its_interval(
    tmp_path: Path,
) -> None:
    """The turn's law against a backward recursion written here; the game's against games
    played through the reference engine by the same bots."""
    import statistics

    import gamenight
    from gamenight.analysis.simulate import play_out, seated_bots

    out = tmp_path / "shake.html"
    done = runner.invoke(app, ["report", "shake", "--out", str(out), "--seed", "3"])
    assert done.exit_code == 0, done.output
    by = {(c["scope"], c["key"]): c for c in parsed(out).cells if "scope" in c}
    stop = json.loads(runner.invoke(app, ["odds", "shake", "--json"]).stdout)["scoring_faces"]
    units = stop["3"]["ev_stop_from_points"] // 10
    p = [Fraction(math.comb(6, j), 64) for j in range(7)]  # three faces of six score: 1/2 a die
    # expected shakes from u tens in hand, and the chance of having ended within n shakes
    shakes: list[Fraction] = [Fraction(0)] * (units + 6)
    for u in range(units - 1, -1, -1):
        shakes[u] = 1 + sum(p[j] * shakes[u + j] for j in range(1, 7))
    assert float(by[("turn", "mean")]["exact"]) == pytest.approx(float(shakes[0]), rel=1e-12)
    ended = [0.0] * units + [1.0] * 6  # from u in hand, ended within n shakes (n = 0 here)
    cdf: list[float] = []
    while not cdf or cdf[-1] < 0.999:
        ended = [float(p[0]) + sum(float(p[j]) * ended[u + j] for j in range(1, 7))
                 for u in range(units)] + [1.0] * 6  # fmt: skip
        cdf.append(ended[0])
    for q, key in ((0.5, "p50"), (0.9, "p90"), (0.99, "p99")):
        assert int(by[("turn", key)]["exact"]) == next(n + 1 for n, c in enumerate(cdf) if c >= q)
    # a whole game: the reference engine's mean shakes within the kernel's interval (widened by
    # the engine sample's own error), and each quantile inside its interval
    game = gamenight.new_game("shake", players=2)
    played = [play_out(game.new_state(seed=s), seated_bots("shake", 2, s)).stats()["shakes"]
              for s in range(200)]  # fmt: skip
    mean = by[("game", "mean")]
    lo, hi = float(mean["lo"]), float(mean["hi"])
    assert lo < float(mean["exact"]) < hi
    engine_se = statistics.stdev(played) / math.sqrt(len(played))
    slack = 3 * math.hypot((hi - lo) / 2 / 1.96, engine_se)
    assert abs(statistics.mean(played) - float(mean["exact"])) <= slack
    for key in ("p50", "p90", "p99"):
        c = by[("game", key)]
        assert int(c["lo"]) <= int(c["exact"]) <= int(c["hi"])
