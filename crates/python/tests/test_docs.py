"""Every ``>>>`` example of docs/python.md runs as shown there, from the
repository's root, with an empty tables folder so that no solved tables of
the machine change an estimate. The page is read as doctest reads a text
file, its code fences turned into blank lines (so that a closing fence is
not taken for expected output)."""

import doctest
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[3]


def test_every_example_of_docs_python_md_runs_as_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("DALKON_DB_DIR", str(tmp_path))
    page = REPO / "docs" / "python.md"
    text = "\n".join(
        "" if line.startswith("```") else line for line in page.read_text().splitlines()
    )
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/python.md", str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 20, result
    assert result.failed == 0, result
