#!/usr/bin/env python3
"""check_contract.py - checks the bundled OpenAPI document against the C sources.

Usage: check_contract.py OPENAPI_JSON [REPO_ROOT]

The spec must name exactly the vocabulary the engine uses, and follow the project's rules
for bodies. Fails (exit 1) when:
- the 422 rule codes differ from the ERROR_KIND_RULE codes of engine/error.h, or a 400 code
  of the engine (ERROR_KIND_INPUT) or of the codec is missing;
- the move types (Move, Action) differ from engine/command.c, the event types (LogEntry)
  from engine/event.c, the phases from engine/game.c;
- a discriminator mapping does not match its oneOf, or a member's `type` const differs
  from its mapping key;
- a request body object lacks additionalProperties: false, or a response object has it;
- an error response (4xx, 5xx) is not application/problem+json, or a 2xx JSON response
  about a game (under /v1/games/{id}, webhooks aside) lacks a required ETag header.
Codes of http/problem.h (the server's table, when present) missing from the spec are
printed as warnings.
"""
import json
import os
import re
import sys


def fail(errors, message):
    errors.append(message)


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def c_strings(text, array_name):
    """The string literals of `static const char *const <array_name>[...] = {...};`."""
    match = re.search(r"\b%s\[[^\]]*\]\s*=\s*\{(.*?)\};" % re.escape(array_name), text, re.S)
    if not match:
        raise SystemExit("check_contract: array %s not found" % array_name)
    return re.findall(r'"([^"]*)"', match.group(1))


class Spec:
    def __init__(self, doc):
        self.doc = doc

    def resolve(self, node):
        seen = 0
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/"):
                raise SystemExit("check_contract: external $ref %s" % ref)
            node = self.doc
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            seen += 1
            if seen > 50:
                raise SystemExit("check_contract: $ref loop at %s" % ref)
        return node

    def schema(self, name):
        return self.doc["components"]["schemas"][name]

    def enum(self, name):
        return list(self.resolve(self.schema(name))["enum"])


def check_union(spec, errors, name, expected):
    union = spec.schema(name)
    mapping = union.get("discriminator", {}).get("mapping", {})
    members = [m["$ref"] for m in union.get("oneOf", [])]
    if union.get("discriminator", {}).get("propertyName") != "type":
        fail(errors, "%s: discriminator is not on `type`" % name)
    if list(mapping) != list(expected):
        fail(errors, "%s: discriminator mapping differs from the C names (in one only: %s; or out of order)"
             % (name, sorted(set(mapping) ^ set(expected))))
    if sorted(mapping.values()) != sorted(members):
        fail(errors, "%s: discriminator mapping and oneOf list different schemas" % name)
    for key, ref in mapping.items():
        member = spec.resolve({"$ref": ref})
        const = member.get("properties", {}).get("type", {}).get("const")
        if const != key:
            fail(errors, "%s: %s maps to %s whose type const is %r" % (name, key, ref, const))
        if "type" not in member.get("required", []):
            fail(errors, "%s: %s does not require `type`" % (name, ref))


def walk_objects(spec, node, visit, path, seen):
    """Calls visit(schema, path) on every object schema reachable from node."""
    if isinstance(node, dict) and "$ref" in node:
        if node["$ref"] in seen:
            return
        seen = seen | {node["$ref"]}
        path = path + " -> " + node["$ref"].split("/")[-1]
        node = spec.resolve(node)
    if not isinstance(node, dict):
        return
    types = node.get("type")
    if types == "object" or (isinstance(types, list) and "object" in types) or "properties" in node:
        visit(node, path)
    for key in ("oneOf", "anyOf", "allOf"):
        for i, sub in enumerate(node.get(key, [])):
            walk_objects(spec, sub, visit, path, seen)
    for name, sub in node.get("properties", {}).items():
        walk_objects(spec, sub, visit, path + "." + name, seen)
    if isinstance(node.get("items"), dict):
        walk_objects(spec, node["items"], visit, path + "[]", seen)
    if isinstance(node.get("additionalProperties"), dict):
        walk_objects(spec, node["additionalProperties"], visit, path + "{}", seen)


def operations(doc):
    for path, item in doc.get("paths", {}).items():
        for method in ("get", "post", "put", "patch", "delete"):
            if method in item:
                yield path, method, item[method]


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = Spec(json.load(f))
    errors = []

    # Refusal codes.
    table = re.findall(r'X\((\w+), "(\w+)", (\w+),', read(root, "engine/error.h"))
    rule_codes = [code for _, code, kind in table if kind == "RULE"]
    input_codes = [code for _, code, kind in table if kind == "INPUT"]
    if spec.enum("RuleCode") != rule_codes:
        fail(errors, "RuleCode differs from engine/error.h RULE codes: %s" % sorted(set(spec.enum("RuleCode")) ^ set(rule_codes)))
    bad_request = set(spec.enum("BadRequestCode"))
    for code in input_codes + ["invalid_json", "unknown_field", "missing_field", "invalid_field"]:
        if code not in bad_request:
            fail(errors, "BadRequestCode lacks %s" % code)

    # Move, action and event types; phases.
    commands = c_strings(read(root, "engine/command.c"), "command_names")
    events = c_strings(read(root, "engine/event.c"), "event_names")
    phases = [p for p in c_strings(read(root, "engine/game.c"), "phase_names") if p != "none"]
    check_union(spec, errors, "Move", commands)
    check_union(spec, errors, "Action", commands)
    check_union(spec, errors, "LogEntry", events)
    view_phase = spec.schema("GameView")["properties"]["phase"]["enum"]
    if view_phase != phases:
        fail(errors, "GameView.phase %s differs from engine/game.c %s" % (view_phase, phases))

    # Request bodies are closed; responses are open.
    def closed(schema, where):
        if schema.get("additionalProperties") is not False and "properties" in schema:
            fail(errors, "request object without additionalProperties: false at %s" % where)

    def open_(schema, where):
        if schema.get("additionalProperties") is False:
            fail(errors, "response object with additionalProperties: false at %s" % where)

    for path, method, op in operations(spec.doc):
        where = "%s %s" % (method.upper(), path)
        body = spec.resolve(op.get("requestBody", {}))
        for media, content in body.get("content", {}).items():
            walk_objects(spec, content.get("schema", {}), closed, where + " request", frozenset())
        for status, response in op.get("responses", {}).items():
            response = spec.resolve(response)
            contents = response.get("content", {})
            for media, content in contents.items():
                walk_objects(spec, content.get("schema", {}), open_, "%s %s" % (where, status), frozenset())
            if status[0] in "45" and list(contents) != ["application/problem+json"]:
                fail(errors, "%s %s: an error response must be application/problem+json only" % (where, status))
            game_resource = path.startswith("/v1/games/{id}") and "/webhooks" not in path and "/stream" not in path
            if status[0] == "2" and game_resource and "application/json" in contents:
                etag = spec.resolve(response.get("headers", {}).get("ETag", {}))
                if not etag.get("required"):
                    fail(errors, "%s %s: no required ETag header" % (where, status))

    # The server's problem table, when it exists: every (code, status) must be in the spec.
    problem_h = os.path.join(root, "http/problem.h")
    if os.path.exists(problem_h):
        by_status = {}
        for name in ("BadRequestProblem", "UnauthorizedProblem", "ForbiddenProblem", "NotFoundProblem",
                     "ConflictProblem", "PreconditionFailedProblem", "PayloadTooLargeProblem",
                     "UnsupportedMediaTypeProblem", "UnprocessableProblem", "TooManyRequestsProblem",
                     "InternalErrorProblem", "ServiceUnavailableProblem"):
            extra = spec.schema(name)["allOf"][1]["properties"]
            codes = set()
            code = spec.resolve(extra["code"])
            for alt in code.get("anyOf", [code]):
                alt = spec.resolve(alt)
                codes |= set(alt.get("enum", [])) | ({alt["const"]} if "const" in alt else set())
            by_status[extra["status"]["const"]] = codes
        by_status[405] = {"method_not_allowed"}
        # Codes an operation lists inline (a problem of its own, as POST .../webhooks's 409).
        for _, _, op in operations(spec.doc):
            for status, response in op.get("responses", {}).items():
                schema = spec.resolve(spec.resolve(response).get("content", {}).get("application/problem+json", {}).get("schema", {}))
                for part in schema.get("allOf", []):
                    code = spec.resolve(spec.resolve(part).get("properties", {}).get("code", {}))
                    if status.isdigit():
                        listed = set(code.get("enum", [])) | ({code["const"]} if "const" in code else set())
                        by_status.setdefault(int(status), set()).update(listed)
        for _, code, status in re.findall(r'X\((\w+), "(\w+)", (\d+),', read(root, "http/problem.h")):
            if code not in by_status.get(int(status), set()):
                print("check_contract: warning: http/problem.h answers %s %s, which the spec does not list" % (status, code))

    for message in errors:
        print("check_contract: " + message, file=sys.stderr)
    if errors:
        return 1
    print("check_contract: %d moves, %d events, %d rule codes match the engine; bodies and errors follow the rules"
          % (len(commands), len(events), len(rule_codes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
