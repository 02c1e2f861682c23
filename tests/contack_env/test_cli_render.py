"""`contack render`: a record drawn as a GIF or a PNG strip; bad input says what is wrong."""

import json

import pytest
from PIL import Image

from contack_env.cli import main


def _records(tmp_path):
    path = tmp_path / "games.jsonl"
    assert main(["simulate", "--game", "contack", "--players", "2", "--agents", "greedy", "--games", "2", "--seed", "3",
                 "--hands", "1", "--out", str(path)]) == 0
    return path


def test_a_record_becomes_an_animated_gif_and_a_png_strip(tmp_path):
    path = _records(tmp_path)
    assert main(["render", str(path), "--index", "1", "--out", str(tmp_path / "g.gif")]) == 0
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.n_frames > 10
    assert main(["render", str(path), "--out", str(tmp_path / "s.png"), "--every", "10"]) == 0
    with Image.open(tmp_path / "s.png") as png:
        assert png.size[0] > 0


def test_a_bad_index_suffix_or_record_is_refused_with_the_reason(tmp_path, capsys):
    path = _records(tmp_path)
    for argv, message in (
        (["--index", "2", "--out", "x.gif"], "holds 2 records, 0..1; got 2"),
        (["--out", str(tmp_path / "x.jpg")], "--out must end in .gif or .png"),
        (["--out", str(tmp_path / "x.gif"), "--fps", "0.001"], "--fps is 0.01 to 100 frames a second"),
        (["--out", str(tmp_path / "x.gif"), "--fps", "nan"], "--fps is 0.01 to 100 frames a second"),
        # the value as given, not rounded into the range ("got 100")
        (["--out", str(tmp_path / "x.gif"), "--fps", "100.0001"], "frames a second (a GIF shows a frame 10 ms to 655 s); got 100.0001"),
        (["--out", str(tmp_path / "x.png"), "--fps", "50"], "--fps is for an animated GIF (--out ending in .gif)"),
        (["--out", str(tmp_path / "x.gif"), "--every", "3"], "--every is for a PNG strip (--out ending in .png)"),
    ):
        try:
            main(["render", str(path), *argv])
        except SystemExit as exit_info:
            assert exit_info.code == 2
        assert message in capsys.readouterr().err
    record = json.loads(path.read_text().splitlines()[0])
    record["hands"][0]["events"][3]["points"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main(["render", str(bad), "--out", str(tmp_path / "b.gif")]) == 1
    assert "bad.json:1 (--index 0): " in capsys.readouterr().err  # named as replay --check names it
    assert not (tmp_path / "b.gif").exists()


def test_the_picture_never_replaces_the_record_file_it_draws(tmp_path, capsys):
    path = _records(tmp_path)
    kept = path.read_bytes()
    (tmp_path / "games.png").symlink_to(path)  # the record file under a picture's names
    (tmp_path / "copy.gif").hardlink_to(path)
    for out in ("games.png", "copy.gif"):
        with pytest.raises(SystemExit) as exit_info:
            main(["render", str(path), "--out", str(tmp_path / out)])
        assert exit_info.value.code == 2 and "is a file this command reads" in capsys.readouterr().err
    assert path.read_bytes() == kept


def test_render_replaces_its_own_pictures_and_keeps_anybody_elses(tmp_path, capsys):
    path = _records(tmp_path)
    for out in ("own.gif", "own.png"):  # its earlier output, and an empty file, are replaced
        assert main(["render", str(path), "--out", str(tmp_path / out)]) == 0
        first = (tmp_path / out).read_bytes()
        assert main(["render", str(path), "--index", "1", "--out", str(tmp_path / out)]) == 0
        assert (tmp_path / out).read_bytes() != first
    (tmp_path / "empty.gif").write_bytes(b"")
    assert main(["render", str(path), "--out", str(tmp_path / "empty.gif")]) == 0
    with Image.open(tmp_path / "empty.gif") as gif:
        assert gif.n_frames > 10
    Image.new("RGB", (8, 8), "red").save(tmp_path / "photo.png")
    Image.new("RGB", (8, 8), "red").save(tmp_path / "chart.gif")
    Image.new("RGB", (8, 8), "red").save(tmp_path / "holiday.png", format="JPEG")
    (tmp_path / "notes.gif").write_text("a file that happens to end in .gif\n")
    for out, words in (("photo.png", "is a PNG picture without the mark of contack render (another program's"),
                       ("chart.gif", "is a GIF picture without the mark of contack render"),
                       ("holiday.png", "is a JPEG picture"), ("notes.gif", "is not a PNG or GIF picture")):
        kept = (tmp_path / out).read_bytes()
        with pytest.raises(SystemExit) as exit_info:
            main(["render", str(path), "--out", str(tmp_path / out)])
        err = capsys.readouterr().err
        assert exit_info.value.code == 2 and f"{out} is there and {words}" in err
        assert "; --out replaces only an empty file or a picture contack render drew" in err
        assert "Traceback" not in err
        assert (tmp_path / out).read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp")) == []


def test_agent_names_with_line_breaks_are_drawn_on_one_line(tmp_path):
    # A record names its agents as it likes ("a\nb" replays); the picture draws the name, it does not fail on it.
    from contack_env.render.image import agent_label

    record = json.loads(_records(tmp_path).read_text().splitlines()[0])
    record["agents"] = ["a\nb", "y\t"]
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(record))
    assert main(["replay", "--check", str(odd)]) == 0
    assert main(["render", str(odd), "--out", str(tmp_path / "odd.png")]) == 0
    assert agent_label("a\nb") == "a b"
