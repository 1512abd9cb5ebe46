"""Tests of the reference trainer's progress on stderr (examples/trainer/train.py) against a real
Envolve server, with real rollouts of the simulated policy in Docker.

    /usr/bin/python3 -m unittest clients/python/test_reference_trainer_progress.py

The server is test_envolve_trainer.py's (`envolve web` over a fresh database with two lineages
gated by the trainer's groups and a held-out task; needs `npx next build`). The module drives one
story, each run a real train.py process, and the tests read what it printed against the server's
own records:
  1. the trainer's checkpoint 1 saturates one lineage's seed (8/8, reported here), so step 1 is
     served the other seed, rolls it out and reports it, and says what it left out and why;
  2. the same run again (same --run-id, same step, same seeds): the report is answered as a replay;
  3. checkpoint 1 saturates the other seed too: steps 2 and 3 get empty batches and say why;
  4. those steps again with --quiet: nothing on stderr, the same JSON on stdout.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
import unittest
import uuid
from dataclasses import dataclass
from math import ceil
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from envolve_trainer import EnvolveTrainer  # noqa: E402
from test_envolve_trainer import REPO, SEED_TASK, SERVER_START_BUDGET_SEC, EnvolveServer  # noqa: E402

TRAIN = REPO / "examples" / "trainer" / "train.py"
SATURATED_TASK = "seed-ledger-sql"
GROUP_SIZE = 4
ROLLOUT_WORKERS = 2
# Competence per step of the two-step seed: each rollout passes with chance 0.25, so its group of
# four (seeds 1-4, the same every run) is neither all-pass nor all-fail and stays in the batch.
COMPETENCE = 0.5
AGENT_TIMEOUT_SEC = 120  # a simulated rollout takes seconds; this is the agent's budget, not a guess at its speed
RUN_ID = f"progress-test-{uuid.uuid4().hex[:8]}"

# What train.py printed on stdout before it had progress on stderr: the shape it keeps.
STEP_KEYS = {"step", "policy", "policyVersion", "competence", "leftOut", "environments", "groups"}
ENVIRONMENT_KEYS = {"versionId", "lineageId", "generation", "policyVersion", "passes", "size"}
GROUP_KEYS = {"versionId", "lineageId", "generation", "rewards", "passes", "size", "timeouts", "released", "frontier", "advanced"}


def run_budget_sec(rollout_groups: int) -> float:
    """What one train.py run may take: per group its rollouts ROLLOUT_WORKERS at a time, each the
    agent's budget and the verifier's, the task's image built once, and the envolve CLI's start
    (the budget the server's start has: the same Node and tsx load)."""
    toml = tomllib.loads((REPO / "examples" / "tasks" / SEED_TASK / "task.toml").read_text())
    rollout = AGENT_TIMEOUT_SEC + float(toml["verifier"]["timeout_sec"])
    build = float(toml["environment"]["build_timeout_sec"])
    per_group = ceil(GROUP_SIZE / ROLLOUT_WORKERS) * rollout + build + 2 * SERVER_START_BUDGET_SEC
    return SERVER_START_BUDGET_SEC + rollout_groups * per_group


@dataclass
class Run:
    stdout: str
    stderr: str

    def steps(self) -> List[Dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines()]

    def lines(self, prefix: str) -> List[str]:
        return [line for line in self.stderr.splitlines() if line.startswith(prefix)]


def train(*argv: str, rollout_groups: int) -> Run:
    server = SERVER
    assert server is not None
    args = ["--url", server.url, "--group-size", str(GROUP_SIZE), "--rollout-workers", str(ROLLOUT_WORKERS), "--batch-size", "4"]
    args += ["--agent-timeout", str(AGENT_TIMEOUT_SEC), "--competence-schedule", str(COMPETENCE), "--run-id", RUN_ID, "--work-dir", WORK_DIR]
    done = subprocess.run(
        ["/usr/bin/python3", str(TRAIN), *args, *argv],
        cwd=REPO,
        env={**os.environ, "ENVOLVE_TOKEN": server.token},
        capture_output=True,
        text=True,
        timeout=run_budget_sec(rollout_groups),
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"train.py {' '.join(argv)} exited {done.returncode}:\n{done.stderr}\nserver:\n{server.output()}")
    return Run(done.stdout, done.stderr)


SERVER: Optional[EnvolveServer] = None
WORK_DIR = ""
SCRATCH: Optional[tempfile.TemporaryDirectory] = None  # type: ignore[type-arg]
RUNS: Dict[str, Run] = {}


def start_story() -> None:
    global SERVER, SCRATCH, WORK_DIR
    SCRATCH = tempfile.TemporaryDirectory(prefix="envolve-train-progress-")
    WORK_DIR = str(Path(SCRATCH.name) / "work")
    SERVER = EnvolveServer()
    try:
        client = EnvolveTrainer(SERVER.url, SERVER.token)
        client.report(SERVER.saturated_version, [1.0] * 8, policy="trainer", policy_version="1")
        RUNS["first"] = train("--first-step", "1", "--steps", "1", rollout_groups=1)
        RUNS["again"] = train("--first-step", "1", "--steps", "1", rollout_groups=1)
        client.report(SERVER.seed_version, [1.0] * 8, policy="trainer", policy_version="1")
        RUNS["empty"] = train("--first-step", "2", "--steps", "2", rollout_groups=0)
        RUNS["quiet"] = train("--first-step", "2", "--steps", "2", "--quiet", rollout_groups=0)
    except BaseException:
        stop_story()
        raise


def stop_story() -> None:
    if SERVER is not None:
        SERVER.stop()
    if SCRATCH is not None:
        SCRATCH.cleanup()


def server() -> EnvolveServer:
    assert SERVER is not None
    return SERVER


class Progress(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        start_story()

    @classmethod
    def tearDownClass(cls) -> None:
        stop_story()

    def test_the_first_line_names_the_server_policy_version_and_steps(self) -> None:
        first = RUNS["first"].stderr.splitlines()[0]
        self.assertIn(f"server {server().url}", first)
        self.assertIn("policy trainer", first)
        self.assertIn("policyVersion = the step", first)
        self.assertIn("steps 1..1 (1)", first)
        self.assertIn("steps 2..3 (2)", RUNS["empty"].stderr.splitlines()[0])

    def test_a_served_step_says_what_it_pulled_rolled_out_and_reported(self) -> None:
        run = RUNS["first"]
        [record] = run.steps()
        [group] = record["groups"]
        self.assertEqual(group["versionId"], server().seed_version)
        self.assertTrue(0 < group["passes"] < GROUP_SIZE, f"the story needs a mixed group at competence {COMPETENCE}: {group}")
        short = server().seed_version[:8]
        self.assertEqual(len(run.lines("step 1: pulled 4 of 4 asked, 1 distinct: ")), 1, run.stderr)
        self.assertIn(f"{short} {SEED_TASK} G0", run.lines("step 1: pulled")[0])
        rollouts = run.lines(f"step 1: {short} {SEED_TASK} G0: rollout seed ")
        self.assertEqual(len(rollouts), GROUP_SIZE, run.stderr)
        for seed, reward in zip(range(1, GROUP_SIZE + 1), group["rewards"]):
            [line] = [r for r in rollouts if r.startswith(f"step 1: {short} {SEED_TASK} G0: rollout seed {seed} done (simulated, competence {COMPETENCE:.2f}): ")]
            self.assertTrue(line.endswith(f"reward {reward}"), line)
        # The group the line names is the one the server stored, under checkpoint 1.
        stored = [g for g in server().groups(server().seed_version) if g["policyVersion"] == "1" and g["size"] == GROUP_SIZE]
        self.assertEqual(len(stored), 1)
        [reported] = run.lines(f"step 1: {short} {SEED_TASK} G0: reported group ")
        self.assertIn(f"reported group {stored[0]['id']} stored: {stored[0]['passes']}/{GROUP_SIZE} passed", reported)
        self.assertIn("released nothing", reported)  # a seed-only lineage has nothing to release
        self.assertEqual(run.lines("step 1: done: "), ["step 1: done: 1 group(s) reported, 0 not reported"])

    def test_what_a_batch_left_out_is_counted_by_reason(self) -> None:
        [line] = RUNS["first"].lines("step 1: 1 left out: ")
        self.assertIn(f"saturated 1 (the gating policy's newest checkpoint passed every rollout: {server().saturated_version[:8]} G0 8/8 at trainer@1)", line)

    def test_a_rerun_with_the_same_run_id_is_answered_as_a_replay_and_stored_once(self) -> None:
        first, again = RUNS["first"].steps()[0]["groups"][0], RUNS["again"].steps()[0]["groups"][0]
        self.assertEqual(first["rewards"], again["rewards"])  # the same seeds: the same body under the same key
        stored = [g for g in server().groups(server().seed_version) if g["policyVersion"] == "1" and g["size"] == GROUP_SIZE]
        self.assertEqual(len(stored), 1)
        [reported] = RUNS["again"].lines(f"step 1: {server().seed_version[:8]} {SEED_TASK} G0: reported group ")
        self.assertIn(f"reported group {stored[0]['id']} replayed (the server had this key's group already; nothing stored twice)", reported)

    def test_an_empty_batch_says_why_counted_by_reason_on_every_step(self) -> None:
        run = RUNS["empty"]
        # The server's own answer: both seeds saturated by checkpoint 1, the newest.
        batch = EnvolveTrainer(server().url, server().token).batch(size=4)
        self.assertEqual((batch.environments, dict(batch.left_out["by_reason"])), ([], {"saturated": 2}))
        for step in (2, 3):
            [line] = run.lines(f"step {step}: empty batch ")
            self.assertIn("(asked 4, got 0): nothing to train on this step; 2 left out: saturated 2 (the gating policy's newest checkpoint passed every rollout: ", line)
            for version in (server().seed_version, server().saturated_version):
                self.assertIn(f"{version[:8]} G0 8/8 at trainer@1", line)
            self.assertEqual(run.lines(f"step {step}: done: "), [f"step {step}: done: 0 group(s) reported, 0 not reported"])
        self.assertEqual([r["groups"] for r in run.steps()], [[], []])

    def test_quiet_prints_nothing_on_stderr_and_the_same_json_on_stdout(self) -> None:
        self.assertEqual(RUNS["quiet"].stderr, "")
        self.assertEqual(RUNS["quiet"].stdout, RUNS["empty"].stdout)

    def test_stdout_is_one_json_line_per_step_in_the_shape_it_always_had(self) -> None:
        for name, steps in (("first", [1]), ("again", [1]), ("empty", [2, 3])):
            records = RUNS[name].steps()
            self.assertEqual([r["step"] for r in records], steps)
            for record in records:
                self.assertEqual(set(record), STEP_KEYS)
                self.assertEqual((record["policy"], record["policyVersion"], record["competence"]), ("trainer", str(record["step"]), COMPETENCE))
                self.assertEqual(set(record["leftOut"]), {"total", "by_reason", "environments"})
                for env in record["environments"]:
                    self.assertEqual(set(env), ENVIRONMENT_KEYS)
                for group in record["groups"]:
                    self.assertEqual(set(group), GROUP_KEYS)


class Help(unittest.TestCase):
    def test_help_shows_every_options_default(self) -> None:
        done = subprocess.run(["/usr/bin/python3", str(TRAIN), "--help"], capture_output=True, text=True, check=True)
        # An option's entry starts at two spaces and a dash, its help wrapped over the lines below.
        entries = [" ".join(entry.split()) for entry in re.split(r"\n(?=  -)", done.stdout.split("options:", 1)[1])]
        options = [e for e in entries if e.startswith("--") and not e.startswith("--url ")]  # --url is required: it has no default
        self.assertGreater(len(options), 15)
        for option in options:
            self.assertIn("(default: ", option)
        for shown in ("--steps STEPS", "(default: 10)"), ("--group-size GROUP_SIZE", "(default: 8)"), ("--token TOKEN", "(default: $ENVOLVE_TOKEN)"), ("--quiet", "(default: False)"):
            self.assertIn(shown[1], next(o for o in options if o.startswith(shown[0])))


if __name__ == "__main__":
    unittest.main()
