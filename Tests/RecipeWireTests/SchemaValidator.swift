import Foundation
import RecipeTestSupport
import Testing

// MARK: - A real JSON Schema validator

/// Validates JSON files against Schemas/ with Python's `jsonschema`
/// (Draft202012Validator, the envelope's `$ref`s to the per-type schemas resolved
/// from a store of every schema file). Runs /usr/bin/python3 — the system Python,
/// where Debian's python3-jsonschema is installed — once per batch.
///
/// Missing Python or jsonschema is a failure, not a skip: `make test` installs them.
enum SchemaValidator {

    struct Verdict: Sendable {
        /// nil when the instance is valid.
        var error: String?
        var isValid: Bool { error == nil }
    }

    /// Validates each `(schema, file)`: `schema` relative to Schemas/, e.g.
    /// "envelope.schema.json" or "commands/TagAdded.v1.schema.json".
    static func validate(_ checks: [(schema: String, file: URL)]) throws -> [Verdict] {
        let data = try runSystemPython(script, [WireTestSupport.schemasDirectory.path] + checks.flatMap { [$0.schema, $0.file.path] })
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count == checks.count else {
            throw ValidatorUnavailable(description: "expected \(checks.count) verdicts, got \(lines.count)")
        }
        return lines.map { $0 == "ok" ? Verdict(error: nil) : Verdict(error: String($0)) }
    }

    struct ValidatorUnavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// One line per check: "ok" or the first error. Duplicate keys and NaN are
    /// refused when reading, as the record decoder does.
    static let script = #"""
    import json, pathlib, sys
    try:
        import jsonschema
        from jsonschema import Draft202012Validator, RefResolver
    except ImportError:
        sys.exit("python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    root = pathlib.Path(sys.argv[1]).resolve()
    store = {}
    for path in sorted(root.rglob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        store[path.as_uri()] = schema
    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key")
        return dict(items)
    def constant(name):
        raise ValueError("not JSON: " + name)
    validators = {}
    args = sys.argv[2:]
    for schema_name, file in zip(args[0::2], args[1::2]):
        uri = (root / schema_name).as_uri()
        if uri not in validators:
            resolver = RefResolver(base_uri=uri, referrer=store[uri], store=store)
            validators[uri] = Draft202012Validator(store[uri], resolver=resolver, format_checker=jsonschema.FormatChecker())
        try:
            instance = json.loads(pathlib.Path(file).read_bytes().decode("utf-8"), object_pairs_hook=pairs, parse_constant=constant)
        except Exception as error:
            print("unreadable: " + str(error).replace("\n", " "))
            continue
        errors = sorted(validators[uri].iter_errors(instance), key=lambda e: list(e.absolute_path))
        print("ok" if not errors else (("/".join(map(str, errors[0].absolute_path)) or "(root)") + ": " + errors[0].message).replace("\n", " ")[:300])
    """#
}
