#!/usr/bin/env python3
"""A reference trainer loop against Envolve's trainer API.

Each training step is one checkpoint of the policy being trained. The loop

  1. pulls a batch from the lineages' frontiers (``GET /api/v1/trainer/batch``),
  2. downloads each environment of the batch as a Harbor task,
  3. runs a group of rollouts (8 by default) of the current checkpoint on it, in real sandboxes,
     scored by the task's own verifier,
  4. reports each group with the step as the policy version (``POST /api/v1/trainer/groups``),
     which is what moves a trainer-gated lineage's frontier, under one Idempotency-Key per group
     (the client retries with it, so a lost answer neither loses nor doubles a group),
  5. "trains": here, the next checkpoint is simply the next step.

It talks to the server only through the public API with a trainer token (``ENVOLVE_TOKEN``), using
clients/python/envolve_trainer.py. A lab's trainer (verl, SkyRL, prime-rl, OpenRLHF...) replaces
:func:`run_group` with its own rollout engine and step 5 with its optimiser step.

Rollouts. This loop does not invent rewards: it runs them with Envolve's own rollout machinery, the
``envolve rollout`` command of an Envolve checkout, against a database of its own (``--work-dir``)
that shares nothing with the server. Each downloaded task is imported there (its version id is its
content hash, so it must equal the id the server served), then rolled out in fresh Docker
containers. Two policies:

* ``--policy openai``: any OpenAI-compatible server, e.g. vLLM serving the checkpoint of the step
  (``--openai-base-url``, ``--model-template 'my-run/step-{step}'``).
* ``--policy simulated``: Envolve's offline stand-in for a model, whose competence (the chance of
  getting each step of the task right) rises with the training step: ``--competence START``,
  ``--competence-per-step D``, capped at 1; or ``--competence-schedule 0.4,0.5,...`` giving it per
  step. Every group uses the same rollout seeds (``--seed`` .. ``--seed + group - 1``), so two
  checkpoints differ only by their competence.

Output: one JSON line per step on stdout (``--log`` also writes them to a file) with the server's
answers (the batch, and per group its pass count and the frontier after it). Progress goes to
stderr (``--quiet`` silences it): the run's server, policy and steps; per step what the batch
served and what it left out and why, counted by reason (an empty batch says why it is empty);
each rollout's policy and reward; each report's group id, whether the server answered it as a
replay of an earlier report with the same key, and what it released.

    ENVOLVE_TOKEN=... python3 examples/trainer/train.py --url http://127.0.0.1:3000 --steps 10
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "clients" / "python"))

from envolve_trainer import Batch, BatchEnvironment, EnvolveTrainer, ReportResult  # noqa: E402

# What each reason the batch API gives for leaving a version out means (lib/scheduler/batch.ts and
# servable.ts): saturated and all-fail give a group-relative trainer zero advantage; the others
# are versions that may not be trained on at all.
LEFT_OUT_MEANING = {
    "saturated": "the gating policy's newest checkpoint passed every rollout",
    "all_fail": "the gating policy's newest checkpoint failed every rollout",
    "unreviewed": "no reviewer approved it yet",
    "held_out": "held out for evaluation",
    "flagged": "flagged as reward-hackable",
    "rejected": "a reviewer rejected it",
    "superseded": "evolved from a rejected generation",
    "unknown_version": "the server no longer has the version",
}


class RolloutError(Exception):
    """The rollouts of a group could not be run (a sandbox error says nothing about the task)."""


class HelpWithDefaults(argparse.ArgumentDefaultsHelpFormatter):
    """--help shows every option's default: argparse's "(default: X)" where the default is a value;
    an option whose default is a fallback ($ENVOLVE_TOKEN, the task's own timeout...) or drawn per
    run says so in its own help instead of "(default: None)"."""

    def _get_help_string(self, action: argparse.Action) -> Optional[str]:
        if action.required or "(default:" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="A reference trainer loop against Envolve's trainer API.", formatter_class=HelpWithDefaults)
    p.add_argument("--url", required=True, help="the Envolve server, e.g. http://127.0.0.1:3000")
    p.add_argument("--token", help="a trainer API token (default: $ENVOLVE_TOKEN)")
    p.add_argument("--steps", type=int, default=10, help="training steps (checkpoints) to run")
    p.add_argument("--first-step", type=int, default=1, help="the checkpoint number of the first step")
    p.add_argument("--batch-size", type=int, default=8, help="environments asked for per step (repeats run once)")
    p.add_argument("--group-size", type=int, default=8, help="rollouts per environment")
    p.add_argument("--policy", choices=("simulated", "openai"), default="simulated", help="what runs the rollouts: Envolve's simulated agent or an OpenAI-compatible server")
    p.add_argument(
        "--policy-name", default="trainer", help="the name the groups are reported under: one the token names (a lineage gated by it counts them)"
    )
    p.add_argument(
        "--run-id",
        default=uuid.uuid4().hex,
        help="names this run in each group's Idempotency-Key (<run>/step-<n>/<version>): rerun a crashed run with its id and a group it already reported is answered, not stored again (default: a new random id per run)",
    )
    p.add_argument("--competence", type=float, default=0.3, help="simulated: competence at step 0")
    p.add_argument("--competence-per-step", type=float, default=0.1, help="simulated: added per step")
    p.add_argument("--competence-schedule", help="simulated: comma-separated competence of steps 1, 2, ..., overriding the two above (default: the linear rise)")
    p.add_argument("--openai-base-url", help="openai: the OpenAI-compatible server (default: $ENVOLVE_OPENAI_BASE_URL)")
    p.add_argument("--model-template", default="{step}", help="openai: the model id of a step's checkpoint, e.g. 'run-7/step-{step}'")
    p.add_argument("--agent-timeout", type=int, help="wall-clock seconds of a rollout's agent (default: the task's [agent] timeout_sec)")
    p.add_argument("--seed", type=int, default=1, help="seed of a group's first rollout")
    p.add_argument("--rollout-workers", type=int, default=2, help="rollout processes at once per group")
    p.add_argument("--work-dir", default="trainer-work", help="downloaded tasks and the rollouts' own database")
    p.add_argument("--envolve-cli", default=str(REPO / "bin" / "envolve.mjs"), help="the envolve command of an Envolve checkout")
    p.add_argument("--log", help="also append the JSON lines to this file (default: stdout only)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr (stdout's JSON lines are the same either way)")
    args = p.parse_args(argv)
    if args.steps < 1 or args.group_size < 1 or args.batch_size < 1 or args.rollout_workers < 1:
        p.error("--steps, --group-size, --batch-size and --rollout-workers must be at least 1")
    if args.competence_schedule is not None:
        try:
            args.schedule = [float(x) for x in args.competence_schedule.split(",")]
        except ValueError:
            p.error("--competence-schedule must be comma-separated numbers")
    else:
        args.schedule = None
    return args


class Progress:
    """Readable progress on stderr, one line per event, flushed at once so a long first step (image
    builds, rollouts) is never silent; nothing with --quiet. Stdout is the JSON lines alone."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet

    def __call__(self, line: str) -> None:
        if not self.quiet:
            print(line, file=sys.stderr, flush=True)


def short(version_id: str) -> str:
    return version_id[:8]


def describe_env(env: BatchEnvironment) -> str:
    return f"{short(env.version_id)} {env.name} G{env.generation}"


def left_out_summary(left_out: Mapping[str, Any]) -> str:
    """What the batch left out, counted by reason, each with what it means: "2 left out: saturated 2
    (the gating policy's newest checkpoint passed every rollout: 3f2a1b2c G0 8/8 at trainer@7, ...)"."""
    by_reason: Mapping[str, int] = left_out.get("by_reason") or {}
    envs: List[Mapping[str, Any]] = list(left_out.get("environments") or [])
    parts = []
    for reason, count in sorted(by_reason.items(), key=lambda kv: (-kv[1], kv[0])):
        listed = [e for e in envs if e.get("reason") == reason]
        examples = ", ".join(left_out_env(e) for e in listed[:3]) + (f", {len(listed) - 3} more" if len(listed) > 3 else "")
        parts.append(f"{reason} {count} ({LEFT_OUT_MEANING.get(reason, 'a reason this trainer does not know')}{': ' + examples if examples else ''})")
    return f"{left_out.get('total', len(envs))} left out: " + "; ".join(parts)


def left_out_env(e: Mapping[str, Any]) -> str:
    group = f" {e['passes']}/{e['size']} at {e.get('policy')}@{e.get('policy_version')}" if e.get("passes") is not None else ""
    return f"{short(str(e.get('versionId', '')))} G{e.get('generation')}{group}"


def batch_summary(step: int, asked: int, batch: Batch) -> List[str]:
    """The lines a pulled batch gets: what it served, and what it left out and why. An empty batch
    says why it is empty: the reasons, or that no lineage has anything to serve."""
    distinct = batch.distinct()
    total = int(batch.left_out.get("total") or 0)
    if not distinct:
        why = left_out_summary(batch.left_out) if total else "no lineage has a frontier to serve (no lineages, or all held out)"
        return [f"step {step}: empty batch (asked {asked}, got 0): nothing to train on this step; {why}"]
    served = ", ".join(describe_env(e) for e in distinct)
    lines = [f"step {step}: pulled {len(batch.environments)} of {asked} asked, {len(distinct)} distinct: {served}"]
    if total:
        lines.append(f"step {step}: {left_out_summary(batch.left_out)}")
    return lines


def report_summary(step: int, env: BatchEnvironment, result: ReportResult) -> str:
    """A reported group: its id, whether the server answered it as a replay of an earlier report with
    the same Idempotency-Key (stored once), its pass count, what it released and where the frontier is."""
    how = "replayed (the server had this key's group already; nothing stored twice)" if result.replayed else "stored"
    timeouts = f", {result.timeouts} timed out" if result.timeouts else ""
    released = result.released()
    outcome = "released " + ", ".join(f"G{r['generation']}" for r in released) if released else "released nothing"
    lineage = next((a for a in result.advanced if a.get("lineageId") == env.lineage_id), None)
    frontier = ""
    if lineage is not None:
        # The scheduler's last step for the lineage says why the frontier stays (held, waiting) or what it did next.
        last = (lineage.get("steps") or [{}])[-1]
        why = last.get("reason") or last.get("kind")
        frontier = f"; frontier G{lineage.get('frontier')}" + (f" ({why})" if why and not released else "")
    return f"step {step}: {describe_env(env)}: reported group {result.group_id} {how}: {result.passes}/{result.size} passed{timeouts}; {outcome}{frontier}"


def competence_at(args: argparse.Namespace, step: int) -> float:
    """The simulated checkpoint's competence: the schedule's entry for the step (its last entry
    beyond it), or the linear rise, within [0, 1]."""
    if args.schedule:
        value = args.schedule[min(step, len(args.schedule)) - 1]
    else:
        value = args.competence + args.competence_per_step * step
    return max(0.0, min(1.0, value))


class Rollouts:
    """Envolve's rollout machinery, run through its CLI against the trainer's own database."""

    def __init__(self, args: argparse.Namespace, progress: Progress) -> None:
        self.args = args
        self.progress = progress
        self.work = Path(args.work_dir).resolve()
        self.work.mkdir(parents=True, exist_ok=True)
        self.env = {**os.environ, "DATABASE_URL": f"file:{self.work / 'rollouts.db'}"}
        self.env.pop("ENVOLVE_TOKEN", None)  # the rollout side never needs the server's token
        if args.openai_base_url:
            self.env["ENVOLVE_OPENAI_BASE_URL"] = args.openai_base_url

    def envolve(self, *argv: str) -> Dict[str, Any]:
        done = subprocess.run(["node", self.args.envolve_cli, *argv, "--json"], env=self.env, capture_output=True, text=True, check=False)
        try:
            return json.loads(done.stdout)
        except json.JSONDecodeError:
            raise RolloutError(f"envolve {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()[-2000:]}") from None

    def import_task(self, task_dir: Path, version_id: str) -> None:
        results = self.envolve("env", "import", str(task_dir)).get("results", [])
        if not results or not results[0].get("ok"):
            raise RolloutError(f"importing {task_dir} for rollouts failed: {results}")
        if results[0]["versionId"] != version_id:
            raise RolloutError(f"the task served as {version_id} hashes to {results[0]['versionId']} here")

    def policy_flags(self, step: int) -> List[str]:
        if self.args.policy == "openai":
            return ["--policy", "openai", "--model", self.args.model_template.format(step=step)]
        profile = self.work / f"competence-step-{step}.json"
        profile.write_text(json.dumps({"default": competence_at(self.args, step), "skills": {}}))
        return ["--policy", "simulated", "--competence", str(profile)]

    def policy_label(self, step: int) -> str:
        if self.args.policy == "openai":
            return f"openai model {self.args.model_template.format(step=step)}"
        return f"simulated, competence {competence_at(self.args, step):.2f}"

    def run_group(self, env: BatchEnvironment, step: int) -> List[Optional[float]]:
        """The rewards of one group of rollouts of checkpoint `step` (None: timed out), in attempt order."""
        version_id, label = env.version_id, f"step {step}: {describe_env(env)}"
        size, workers = self.args.group_size, min(self.args.rollout_workers, self.args.group_size)
        shares = [size // workers + (1 if i < size % workers else 0) for i in range(workers)]
        starts = [self.args.seed + sum(shares[:i]) for i in range(workers)]
        flags = self.policy_flags(step)
        if self.args.agent_timeout is not None:
            flags += ["--agent-timeout", str(self.args.agent_timeout)]
        policy = self.policy_label(step)
        self.progress(f"{label}: rolling out {size} ({policy}; seeds {self.args.seed}..{self.args.seed + size - 1}) in {workers} process(es)")

        def part(start: int, attempts: int) -> List[Dict[str, Any]]:
            out = self.envolve("rollout", version_id, *flags, "--attempts", str(attempts), "--seed", str(start))
            rollouts = out.get("rollouts")
            if not isinstance(rollouts, list):
                raise RolloutError(f"envolve rollout failed: {out.get('error') or out}")
            # A process runs its share one after another and answers once: its rollouts are told
            # when it ends, each with the seed it ran with.
            for i, r in enumerate(rollouts):
                verdict = {True: ", passed", False: ", failed"}.get(r.get("passed"), "")
                if r.get("status") == "timed-out":
                    reward = "none (timed out: the server scores it)"
                else:
                    reward = "none" if r.get("reward") is None else str(float(r["reward"]))  # as reported
                self.progress(f"{label}: rollout seed {start + i} done ({policy}): {r.get('status')}{verdict}, reward {reward}")
            return rollouts

        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(part, starts, shares))
        rollouts = [r for p in parts for r in p]
        errors = [r for r in rollouts if r.get("status") == "error"]
        if errors:
            raise RolloutError(f"{len(errors)} of {size} rollouts ended in a sandbox error: {errors[0].get('error')}")
        # A verifier that wrote no reward scored nothing: reporting it as 0 would count a broken
        # verifier as the policy's failure.
        unscored = [r for r in rollouts if r.get("status") != "timed-out" and r.get("reward") is None]
        if unscored:
            raise RolloutError(f"{len(unscored)} of {size} rollouts have no reward ({unscored[0].get('status')}): the verifier wrote none")
        return [None if r.get("status") == "timed-out" else float(r["reward"]) for r in rollouts]


def frontier_after(result_advanced: List[Dict[str, Any]], lineage_id: str) -> Optional[int]:
    for lineage in result_advanced:
        if lineage.get("lineageId") == lineage_id:
            return int(lineage["frontier"])
    return None


def train_step(client: EnvolveTrainer, rollouts: Rollouts, args: argparse.Namespace, step: int) -> Dict[str, Any]:
    progress = rollouts.progress
    progress(f"step {step}: pulling a batch of {args.batch_size}")
    batch = client.batch(size=args.batch_size, seed=step)
    for line in batch_summary(step, args.batch_size, batch):
        progress(line)
    record: Dict[str, Any] = {
        "step": step,
        "policy": args.policy_name,
        "policyVersion": str(step),
        "competence": competence_at(args, step) if args.policy == "simulated" else None,
        "leftOut": batch.left_out,
        "environments": [
            {"versionId": e.version_id, "lineageId": e.lineage_id, "generation": e.generation, "policyVersion": e.policy_version, "passes": e.passes, "size": e.size}
            for e in batch.distinct()
        ],
        "groups": [],
    }
    for env in batch.distinct():
        record["groups"].append(roll_and_report(client, rollouts, args, step, env))
    reported = sum(1 for g in record["groups"] if "error" not in g)
    progress(f"step {step}: done: {reported} group(s) reported, {len(record['groups']) - reported} not reported")
    return record


def roll_and_report(client: EnvolveTrainer, rollouts: Rollouts, args: argparse.Namespace, step: int, env: BatchEnvironment) -> Dict[str, Any]:
    group: Dict[str, Any] = {"versionId": env.version_id, "lineageId": env.lineage_id, "generation": env.generation}
    progress = rollouts.progress
    try:
        progress(f"step {step}: {describe_env(env)}: downloading and importing the task")
        task = client.download(env, rollouts.work / "tasks")
        rollouts.import_task(task, env.version_id)
        rewards = rollouts.run_group(env, step)
    except RolloutError as err:
        # Not reported: a group with sandbox errors says nothing about the environment.
        group["error"] = str(err)
        progress(f"step {step}: {describe_env(env)}: not reported ({err})")
        return group
    # One key per group, from what makes the group: the client resends it after a lost answer, and
    # a rerun of this run with the same --run-id gets the first answer instead of a second group.
    key = f"{args.run_id}/step-{step}/{env.version_id}"
    result = client.report(env.version_id, rewards, policy=args.policy_name, policy_version=str(step), idempotency_key=key)
    group.update(
        rewards=rewards,
        passes=result.passes,
        size=result.size,
        timeouts=result.timeouts,
        released=[s["generation"] for s in result.released()],
        frontier=frontier_after(result.advanced, env.lineage_id),
        advanced=result.advanced,
    )
    progress(report_summary(step, env, result))
    return group


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    progress = Progress(args.quiet)
    client = EnvolveTrainer(args.url, args.token)
    last = args.first_step + args.steps - 1
    progress(
        f"train.py: server {client.base_url}, reporting as policy {args.policy_name} with policyVersion = the step, "
        f"steps {args.first_step}..{last} ({args.steps}); rollouts by {args.policy}, {args.group_size} per environment, "
        f"batches of {args.batch_size}; run id {args.run_id}"
    )
    rollouts = Rollouts(args, progress)
    log = open(args.log, "a") if args.log else None
    try:
        for step in range(args.first_step, args.first_step + args.steps):
            line = json.dumps(train_step(client, rollouts, args, step))
            print(line, flush=True)
            if log:
                log.write(line + "\n")
                log.flush()
    finally:
        if log:
            log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
