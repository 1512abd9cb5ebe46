// tests/test.sh of an imported task Envolve lengthened: the original verifier (kept as
// tests/seed_test.sh) runs first and must still give reward 1, then each chained step's output
// is compared with tests/chain.json. One CTRF test for the original task, one per added step;
// reward 1 only when all pass.
import { stepChecksPython } from './test-script.ts';

export const SEED_TEST = 'tests/seed_test.sh';
export const CHAIN_FILE = 'tests/chain.json';

export function renderChainTestScript(): string {
  return `#!/bin/bash
# Verifier from Envolve's procedural synthesiser for a lengthened imported task.
mkdir -p /logs/verifier
bash /${SEED_TEST}
seed_exit=$?
mkdir -p /logs/verifier

python3 - "$seed_exit" <<'PY'
import json
import pathlib
import sys

verifier = pathlib.Path("/logs/verifier")

def original_reward():
    txt, js = verifier / "reward.txt", verifier / "reward.json"
    try:
        if txt.is_file():
            return float(txt.read_text().strip())
        if js.is_file():
            values = json.loads(js.read_text())
            return float(values["reward"]) if "reward" in values else sum(values.values()) / len(values)
    except (ValueError, TypeError, KeyError, ZeroDivisionError):
        return None
    return None

reward = original_reward()
for name in ("reward.txt", "reward.json"):
    (verifier / name).unlink(missing_ok=True)
original_ok = reward == 1
original = {"name": "original task", "status": "passed" if original_ok else "failed", "duration": 0}
if not original_ok:
    original["message"] = f"the original verifier gave reward {reward} (exit code {sys.argv[1]})"
print(f"original task: {original['status']} (reward {reward})")

${stepChecksPython(`/${CHAIN_FILE}`)}tests.insert(0, original)
passed = sum(1 for t in tests if t["status"] == "passed")
report = {"results": {"tool": {"name": "envolve-procedural"},
          "summary": {"tests": len(tests), "passed": passed, "failed": len(tests) - passed,
                      "pending": 0, "skipped": 0, "other": 0, "start": 0, "stop": 0},
          "tests": tests}}
(verifier / "ctrf.json").write_text(json.dumps(report, indent=2))
(verifier / "reward.txt").write_text("1\\n" if passed == len(tests) else "0\\n")
PY
[ -s /logs/verifier/reward.txt ] || echo 0 > /logs/verifier/reward.txt
`;
}
