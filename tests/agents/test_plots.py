from agents.evaluate import evaluate, write_json
from agents.plots import main


def test_plot_of_evaluations_is_a_png(tmp_path, capsys):
    paths = []
    for k, agents in enumerate((["greedy", "random"], ["greedy", "random", "random"])):
        path = tmp_path / f"ev{k}.json"
        write_json(str(path), evaluate(agents, 2 * len(agents), seed=k))
        paths.append(str(path))
    out = tmp_path / "plot.png"
    assert main([str(out), "test plot", *paths]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main([str(out)]) == 2
    assert "usage" in capsys.readouterr().err
