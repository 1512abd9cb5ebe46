// tests/test.sh of a procedural task: compares each step's output with tests/expected.json (the
// answers computed in TypeScript when the data was generated; copied in only after the agent),
// writes one CTRF test per step and reward 1 only when every step matches.

// Python that loads the expected answers from `expectedFile`, compares each step's
// /app/out/<id>.txt with its answer and collects one CTRF test per step in `tests`.
export const stepChecksPython = (expectedFile: string): string => `def normalise(text):
    return "\\n".join(line.rstrip() for line in text.splitlines()).rstrip("\\n")

steps = json.loads(pathlib.Path("${expectedFile}").read_text())["steps"]
tests = []
for step in steps:
    path = pathlib.Path(f"/app/out/{step['id']}.txt")
    if not path.is_file():
        status, message = "failed", f"{path} does not exist"
    else:
        got = normalise(path.read_text(errors="replace"))
        ok = got == normalise(step["expected"])
        status = "passed" if ok else "failed"
        message = "" if ok else f"{path} holds {got!r}, expected {step['expected']!r}"
    print(f"{step['id']}: {status} {message}".rstrip())
    test = {"name": f"step {step['id']}", "status": status, "duration": 0}
    if message:
        test["message"] = message
    tests.append(test)

`;

export function renderTestScript(lenient: boolean): string {
  const ending = lenient
    ? ['# Fault injected for validator tests: reward 1 whatever the outputs are.', 'echo 1 > /logs/verifier/reward.txt']
    : ['[ -s /logs/verifier/reward.txt ] || echo 0 > /logs/verifier/reward.txt'];
  return `#!/bin/bash
# Verifier from Envolve's procedural synthesiser. Trailing whitespace on each line and trailing
# blank lines are ignored; everything else must match exactly.
mkdir -p /logs/verifier

python3 - <<'PY'
import json
import pathlib

${stepChecksPython('/tests/expected.json')}passed = sum(1 for t in tests if t["status"] == "passed")
report = {"results": {"tool": {"name": "envolve-procedural"},
          "summary": {"tests": len(tests), "passed": passed, "failed": len(tests) - passed,
                      "pending": 0, "skipped": 0, "other": 0, "start": 0, "stop": 0},
          "tests": tests}}
pathlib.Path("/logs/verifier/ctrf.json").write_text(json.dumps(report, indent=2))
pathlib.Path("/logs/verifier/reward.txt").write_text("1\\n" if tests and passed == len(tests) else "0\\n")
PY
${ending.join('\n')}
`;
}
