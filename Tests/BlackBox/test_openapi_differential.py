"""UnderstudyJSONSchema against Python's `jsonschema` (4.x, Draft 2020-12) on generated instances over
every schema of the OpenAPI corpus: the two must agree on every instance (at least 10 000) that
Understudy decides; the few it cannot (a pattern with a backreference) it answers `unchecked`.

One `understudy openapi-validate` process per document validates the whole batch (JSON lines in,
`true`/`false` out). OpenAPI 3.0 documents are handed to `jsonschema` translated to 2020-12 as the
3.0 rules say: `nullable: true` admits null, boolean `exclusiveMinimum`/`exclusiveMaximum` make the
bound exclusive, and `$ref` replaces its siblings."""
import copy
import json
import random
import subprocess
import unittest

import jsonschema
import referencing
import yaml

from Tests.BlackBox.blackbox import binary
from Tests.BlackBox.openapi_corpus import documents

MINIMUM_INSTANCES = 10_000
PER_DOCUMENT = 3_000


class PlainLoader(yaml.SafeLoader):
    """YAML's core schema without timestamps: a date stays the string it is in JSON (as Understudy reads it)."""


PlainLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def translate_30(node):
    """An OpenAPI 3.0 schema object (recursively, the whole document) as draft 2020-12."""
    if isinstance(node, list):
        return [translate_30(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and isinstance(node["$ref"], str):
        return {"$ref": node["$ref"]}
    out = {key: translate_30(value) for key, value in node.items()}
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if out.get(exclusive) is True and bound in node:
            out[exclusive] = out.pop(bound)
        elif isinstance(out.get(exclusive), bool):
            del out[exclusive]
    if isinstance(out.get("items"), list):
        del out["items"]
    if out.pop("nullable", False) is True:
        return {"anyOf": [{"type": "null"}, out]}
    return out


class Generator:
    """Instances near a schema: values it accepts and small mutations of them, so both answers occur."""

    def __init__(self, document, seed):
        self.document = document
        self.random = random.Random(seed)

    def resolve(self, schema, depth):
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and depth < 20:
            target = self.document
            for token in schema["$ref"].lstrip("#").split("/")[1:]:
                target = target[token.replace("~1", "/").replace("~0", "~")]
            schema = target
            depth += 1
        return schema

    def value(self, schema, depth=0):
        schema = self.resolve(schema, depth)
        if not isinstance(schema, dict) or depth > 6:
            return self.scalar()
        for keyword in ("example", "default", "const"):
            if keyword in schema and self.random.random() < 0.3:
                return copy.deepcopy(schema[keyword])
        if isinstance(schema.get("enum"), list) and schema["enum"] and self.random.random() < 0.8:
            return copy.deepcopy(self.random.choice(schema["enum"]))
        for keyword in ("allOf", "anyOf", "oneOf"):
            if isinstance(schema.get(keyword), list) and schema[keyword]:
                if keyword == "allOf":
                    merged = {}
                    for branch in schema[keyword]:
                        part = self.value(branch, depth + 1)
                        if isinstance(part, dict):
                            merged.update(part)
                    return merged
                return self.value(self.random.choice(schema[keyword]), depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = self.random.choice(kind) if kind else None
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else self.random.choice(
                ["string", "integer", "object", "null"])
        if kind == "object":
            out = {}
            properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
            required = schema.get("required") if isinstance(schema.get("required"), list) else []
            for name, sub in properties.items():
                if name in required or self.random.random() < 0.5:
                    out[name] = self.value(sub, depth + 1)
            for name in required:
                out.setdefault(name, self.scalar())
            return out
        if kind == "array":
            items = schema.get("items", {})
            count = self.random.randint(schema.get("minItems", 0), max(schema.get("minItems", 0), min(schema.get("maxItems", 3), 3)))
            return [self.value(items, depth + 1) for _ in range(count)]
        if kind == "integer":
            low = int(schema.get("minimum", -5)) if isinstance(schema.get("minimum"), (int, float)) else -5
            high = int(schema.get("maximum", low + 100)) if isinstance(schema.get("maximum"), (int, float)) else low + 100
            return self.random.randint(min(low, high), max(low, high))
        if kind == "number":
            return self.random.choice([0, 1.5, -2.25, 100, 3])
        if kind == "boolean":
            return self.random.random() < 0.5
        if kind == "null":
            return None
        length = self.random.randint(schema.get("minLength", 0), max(schema.get("minLength", 0), min(schema.get("maxLength", 12), 12)))
        return "".join(self.random.choice("abcXYZ019-_ é") for _ in range(length))

    def scalar(self):
        return self.random.choice([None, True, 0, -1, 2.5, "", "x", "2024-01-01", [], {}, [1, "a"], {"k": 1}])

    def mutate(self, value):
        """One small change somewhere in `value`."""
        if isinstance(value, dict) and value and self.random.random() < 0.7:
            key = self.random.choice(list(value))
            choice = self.random.random()
            out = dict(value)
            if choice < 0.3:
                del out[key]
            elif choice < 0.5:
                out["unexpected_" + key] = self.scalar()
            else:
                out[key] = self.mutate(value[key])
            return out
        if isinstance(value, list) and value and self.random.random() < 0.7:
            out = list(value)
            index = self.random.randrange(len(out))
            if self.random.random() < 0.3:
                out.append(copy.deepcopy(out[index]))
            else:
                out[index] = self.mutate(out[index])
            return out
        return self.scalar()


class DifferentialTests(unittest.TestCase):
    def test_understudy_agrees_with_python_jsonschema(self):
        total = 0
        unchecked = []
        disagreements = []
        for name, spec, _ in documents():
            text = spec.read_text()
            document = json.loads(text) if spec.suffix == ".json" else yaml.load(text, Loader=PlainLoader)
            schemas = (document.get("components") or {}).get("schemas") or {}
            if not schemas:
                continue
            reference = translate_30(document) if str(document.get("openapi", "")).startswith("3.0") else document
            resource = referencing.Resource.from_contents(reference,
                                                          default_specification=referencing.jsonschema.DRAFT202012)
            registry = referencing.Registry().with_resource("urn:spec", resource)
            generator = Generator(document, seed=27)
            per_schema = max(6, -(-PER_DOCUMENT // len(schemas)))
            lines, expected = [], []
            for schema_name in schemas:
                pointer = "#/components/schemas/" + schema_name.replace("~", "~0").replace("/", "~1")
                validator = jsonschema.Draft202012Validator({"$ref": "urn:spec" + pointer}, registry=registry)
                for index in range(per_schema):
                    instance = generator.value(schemas[schema_name])
                    if index % 2:
                        instance = generator.mutate(instance)
                    lines.append(json.dumps({"schema": pointer, "instance": instance}))
                    expected.append(validator.is_valid(instance))
            result = subprocess.run([binary(), "openapi-validate", "--openapi", str(spec)], input="\n".join(lines) + "\n",
                                    capture_output=True, text=True, timeout=600)
            self.assertEqual(result.returncode, 0, result.stdout[:2000] + result.stderr)
            answers = result.stdout.split()
            self.assertEqual(len(answers), len(lines), f"{name}: one answer per line")
            for line, want, got in zip(lines, expected, answers):
                if got == "unchecked":
                    unchecked.append(f"{name}: {line[:200]}")
                    continue
                total += 1
                if got != ("true" if want else "false"):
                    disagreements.append(f"{name}: jsonschema says {want}, understudy {got}: {line[:300]}")
            valid = sum(expected)
            self.assertTrue(0 < valid < len(expected), f"{name}: both answers occur ({valid} valid of {len(expected)})")
        self.assertGreaterEqual(total, MINIMUM_INSTANCES, "instances both validators decided")
        # What the validator cannot decide (a backreference in an Asana pattern) it says so about; it
        # must stay rare, and it is never counted as agreement.
        self.assertLess(len(unchecked), total // 100, "\n".join(unchecked[:10]))
        print(f"\n{total} instances agreed on; {len(unchecked)} unchecked (unsupported pattern or keyword)")
        self.assertEqual(disagreements, [], f"{len(disagreements)} of {total} disagree:\n" + "\n".join(disagreements[:30]))


if __name__ == "__main__":
    unittest.main()
