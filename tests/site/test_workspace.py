"""The build's one way of writing a finished thing: made beside its place, then renamed in."""

import pytest

from buildtools.workspace import built_beside


def test_a_folder_appears_whole_and_replaces_the_old_one_only_when_asked(tmp_path):
    target = tmp_path / "dist"
    with built_beside(target, replace=True) as fresh:
        fresh.mkdir()
        (fresh / "a.txt").write_text("one")
        assert not target.exists()  # nothing to see until the block succeeds
    assert (target / "a.txt").read_text() == "one"

    with built_beside(target, replace=True) as fresh:
        fresh.mkdir()
        (fresh / "b.txt").write_text("two")
        assert (target / "a.txt").exists()  # the old one is served meanwhile
    assert sorted(p.name for p in target.iterdir()) == ["b.txt"]

    # A cached folder another build made first is kept; ours is dropped.
    with built_beside(target) as fresh:
        fresh.mkdir()
        (fresh / "c.txt").write_text("three")
    assert sorted(p.name for p in target.iterdir()) == ["b.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist"]


def test_a_failed_build_leaves_the_old_target_and_nothing_beside_it(tmp_path):
    target = tmp_path / "dist"
    target.mkdir()
    (target / "a.txt").write_text("one")
    with pytest.raises(RuntimeError), built_beside(target, replace=True) as fresh:
        fresh.mkdir()
        raise RuntimeError("half built")
    assert [p.name for p in tmp_path.iterdir()] == ["dist"]
    assert (target / "a.txt").read_text() == "one"


def test_a_file_replaces_the_old_one(tmp_path):
    target = tmp_path / "cache" / "bundle.js"
    for text in ("one", "two"):
        with built_beside(target) as fresh:
            fresh.write_text(text)
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["bundle.js"]
