"""The OpenAPI corpus (Tests/OpenAPICorpus) and a JSON position finder independent of Understudy's
parser, so the drift test computes where each planted drift is by itself."""
import json
import pathlib

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "OpenAPICorpus"


def documents():
    """(name, spec path, directory) for every document of the corpus that has planted drifts."""
    found = []
    for directory in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        specs = sorted(p for p in directory.iterdir() if p.suffix in (".yaml", ".yml", ".json") and p.name != "drifts.json")
        if specs and (directory / "drifts.json").exists():
            found.append((directory.name, specs[0], directory))
    return found


def position(text, path):
    """The 1-based (line, column) where the value at `path` (`stubs[0].responses[1].json.id`,
    `headers.Content-Type`, `[1]`) starts in the JSON `text`; columns count code points."""
    steps = []
    i = 0
    while i < len(path):
        if path[i] == "[":
            j = path.index("]", i)
            inner = path[i + 1:j]
            steps.append(json.loads(inner) if inner.startswith('"') else int(inner))
            i = j + 1
        elif path[i] == ".":
            i += 1
        else:
            j = i
            while j < len(path) and path[j] not in ".[":
                j += 1
            steps.append(path[i:j])
            i = j
    offset = _locate(text, _skip(text, 0), steps)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _skip(text, i):
    while text[i] in " \t\r\n":
        i += 1
    return i


def _locate(text, i, steps):
    if not steps:
        return i
    step, rest = steps[0], steps[1:]
    decoder = json.JSONDecoder()
    if text[i] == "{":
        i = _skip(text, i + 1)
        while text[i] != "}":
            key, i = decoder.raw_decode(text, i)
            i = _skip(text, i)
            assert text[i] == ":"
            i = _skip(text, i + 1)
            if key == step:
                return _locate(text, i, rest)
            _, i = decoder.raw_decode(text, i)
            i = _skip(text, i)
            if text[i] == ",":
                i = _skip(text, i + 1)
        raise KeyError(step)
    if text[i] == "[":
        i = _skip(text, i + 1)
        index = 0
        while text[i] != "]":
            if index == step:
                return _locate(text, i, rest)
            _, i = decoder.raw_decode(text, i)
            i = _skip(text, i)
            if text[i] == ",":
                i = _skip(text, i + 1)
            index += 1
        raise IndexError(step)
    raise ValueError(f"cannot step into a scalar at {i}")
