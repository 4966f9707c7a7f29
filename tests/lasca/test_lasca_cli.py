"""The command line: perft, moves and play, run as a real subprocess."""

import subprocess
import sys

from pyengine.games.lasca import START


def run(*args):
    return subprocess.run([sys.executable, "-m", "pyengine.games.lasca", *args],
                          capture_output=True, text=True, timeout=60)


def test_perft_from_start_and_from_a_given_position():
    assert run("perft", "6").stdout.split() == ["324"]
    assert run("perft", "5", START).stdout.split() == ["116"]
    assert run("perft", "1", "W:c3=w,b4=b,d4=b,f6=b").stdout.split() == ["2"]


def test_perft_divide_lists_each_first_move():
    lines = run("perft", "3", "--divide").stdout.splitlines()
    assert lines[-1] == "18"
    per_move = dict(line.split() for line in lines[:-1])
    assert len(per_move) == 6 and sum(map(int, per_move.values())) == 18


def test_moves_and_play():
    assert run("moves", "W:c3=W,d4=bb,d6=b,b6=b,b4=b").stdout.split() == [
        "c3xe5xc7xa5xc3", "c3xa5xc7xe5xc3"]
    played = run("play", START, "c3-d4", "e5xc3")
    assert played.returncode == 0
    assert played.stdout.strip() == START.replace("e5=b,", "").replace("c3=w", "c3=bw")
    assert run("play", "W:c3=Wb,d4=Bw,f6=b", "c3xe5xg7").stdout.strip() == "B:g7=WbBb,d4=w"


def test_errors_exit_with_status_2_and_a_reason():
    bad = run("moves", "X:a1=w")
    assert bad.returncode == 2 and "W: or B:" in bad.stderr
    illegal = run("play", START, "a3-a4")
    assert illegal.returncode == 2 and "a4" in illegal.stderr
    assert run("perft", "-1").returncode == 2
