"""Tests of envolve_trainer.py against a real Envolve server.

    /usr/bin/python3 -m unittest discover -s clients/python      (npm test runs this)

The server is this checkout's own (`node bin/envolve.mjs web`, which serves the production build:
run `npx next build` first) on a free loopback port, with a fresh SQLite database in a temporary
directory made by test/fixtures/python-client-fixture.ts through Envolve's own lib: a trainer
token and a reviewer's, and two imported example tasks, one the seed of a lineage gated by the
trainer's groups (so a batch serves it), the other held out.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from envolve_trainer import (  # noqa: E402
    AuthenticationError,
    BadRequestError,
    ConflictError,
    EnvolveTrainer,
    PermissionDeniedError,
    RefusedError,
    UnsafeArchiveError,
    safe_extract,
)

REPO = Path(__file__).resolve().parents[2]
SEED_TASK = "seed-logs-awk"
HELD_OUT_TASK = "seed-telemetry-jq"
# What the server needs before it answers its first request: Next's preparation of the build and
# the start-up migration check, a few seconds on an idle machine, over two minutes with both cores
# busy (load average 30 seen). The same budget as test/fixtures/trainer-server.ts.
SERVER_START_BUDGET_SEC = 300


def run(command: List[str], env: Dict[str, str]) -> str:
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EnvolveServer:
    """`envolve web` over a fresh SQLite database, with a trainer token and a one-seed lineage."""

    def __init__(self) -> None:
        dist = REPO / os.environ.get("ENVOLVE_NEXT_DIST_DIR", ".next")
        if not (dist / "BUILD_ID").exists():
            raise RuntimeError(f"no production build in {dist}: run `npx next build` first (npm test does)")
        self.dir = tempfile.TemporaryDirectory(prefix="envolve-python-client-")
        self.db_path = Path(self.dir.name) / "envolve.db"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": f"file:{self.db_path}", "HOST": "127.0.0.1", "PORT": str(self.port)}
        self.env.pop("ENVOLVE_TOKEN", None)
        fixture = json.loads(run(["node", "--import", "tsx", "test/fixtures/python-client-fixture.ts", str(self.db_path)], self.env))
        self.token: str = fixture["token"]
        self.reviewer_token: str = fixture["reviewerToken"]
        self.seed_version: str = fixture["seedVersion"]
        self.held_out_version: str = fixture["heldOutVersion"]
        self.lineage_id: str = fixture["lineageId"]
        self.saturated_version: str = fixture["saturatedVersion"]
        self.log = open(Path(self.dir.name) / "web.log", "w+")
        self.process = subprocess.Popen(["node", "bin/envolve.mjs", "web"], cwd=REPO, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        try:
            self._wait_until_up()
        except BaseException:
            self.stop()
            raise

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + SERVER_START_BUDGET_SEC
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"envolve web exited with {self.process.returncode}:\n{self.output()}")
            try:
                with urllib.request.urlopen(f"{self.url}/icon.svg", timeout=30):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"envolve web did not answer within {SERVER_START_BUDGET_SEC} s:\n{self.output()}")

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()[-4000:]

    def groups(self, version_id: str) -> List[sqlite3.Row]:
        with sqlite3.connect(self.db_path) as db:
            db.row_factory = sqlite3.Row
            return db.execute("SELECT * FROM ProbeGroup WHERE versionId = ? ORDER BY createdAt", (version_id,)).fetchall()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        self.dir.cleanup()


SERVER: Optional[EnvolveServer] = None


def setUpModule() -> None:
    global SERVER
    SERVER = EnvolveServer()


def tearDownModule() -> None:
    if SERVER is not None:
        SERVER.stop()


def server() -> EnvolveServer:
    assert SERVER is not None
    return SERVER


class AgainstTheServer(unittest.TestCase):
    def client(self, **kwargs: Any) -> EnvolveTrainer:
        return EnvolveTrainer(server().url, kwargs.pop("token", server().token), **kwargs)

    def test_a_batch_serves_the_lineage_seed_with_its_fields_typed(self) -> None:
        batch = self.client().batch(size=5, seed=7)
        self.assertEqual(len(batch.environments), 5)  # a pass over the pool serves each lineage once, then starts over
        served = {e.version_id: e for e in batch.environments}
        self.assertIn(server().seed_version, served)
        self.assertNotIn(server().held_out_version, served)
        env = served[server().seed_version]
        self.assertEqual((env.name, env.lineage_id, env.generation, env.policy, env.released_by), (SEED_TASK, server().lineage_id, 0, "trainer", None))
        self.assertEqual(env.task_url, f"/api/v1/trainer/environments/{server().seed_version}/task")
        self.assertEqual(len(batch.distinct()), len(served))
        self.assertEqual(self.client().batch(size=5, seed=7).environments, batch.environments)

    def test_a_version_the_newest_checkpoint_saturates_leaves_the_batch_and_the_batch_says_why(self) -> None:
        client = self.client()
        result = client.report(server().saturated_version, [1.0] * 8, policy="trainer", policy_version="7")
        self.assertEqual((result.passes, result.size), (8, 8))
        batch = client.batch(size=8)
        self.assertNotIn(server().saturated_version, [e.version_id for e in batch.environments])
        left = [e for e in batch.left_out["environments"] if e["versionId"] == server().saturated_version]
        self.assertEqual([e["reason"] for e in left], ["saturated"])
        self.assertGreaterEqual(batch.left_out["by_reason"]["saturated"], 1)
        self.assertEqual(batch.left_out["total"], len(batch.left_out["environments"]))

    def test_download_unpacks_the_harbor_task_into_a_directory_named_by_its_version(self) -> None:
        client = self.client()
        env = client.batch(size=1).environments[0]
        with tempfile.TemporaryDirectory() as dest:
            task = client.download(env, dest)
            self.assertEqual(task, Path(dest) / server().seed_version)
            for name in ("task.toml", "instruction.md", "environment/Dockerfile", "tests/test.sh", "solution/solve.sh", "envolve.json"):
                self.assertTrue((task / name).is_file(), name)
            self.assertTrue(os.access(task / "tests" / "test.sh", os.X_OK))
            self.assertFalse(os.access(task / "instruction.md", os.X_OK))
            self.assertEqual(json.loads((task / "envolve.json").read_text())["versionId"], server().seed_version)
            # A second download replaces the first, and leaves no scratch directory behind.
            (task / "stale.txt").write_text("from an earlier run")
            self.assertEqual(client.download(server().seed_version, dest), task)
            self.assertFalse((task / "stale.txt").exists())
            self.assertEqual(os.listdir(dest), [server().seed_version])

    def test_report_carries_policy_and_version_and_timeouts_are_scored_by_the_server(self) -> None:
        result = self.client().report(server().seed_version, [1, 0, 1, None, 1, 1, 0, 1], policy="trainer", policy_version="42")
        self.assertEqual((result.passes, result.size, result.timeouts), (5, 8, 1))
        self.assertEqual([a["lineageId"] for a in result.advanced], [server().lineage_id])
        self.assertEqual(result.released(), [])  # 5/8 is under the 6/8 gate
        stored = [g for g in server().groups(server().seed_version) if g["id"] == result.group_id]
        self.assertEqual(len(stored), 1)
        self.assertEqual((stored[0]["policy"], stored[0]["policyVersion"], stored[0]["passes"], stored[0]["timeouts"]), ("trainer", "42", 5, 1))

    def test_the_same_key_answers_the_first_group_and_stores_it_once(self) -> None:
        before = len(server().groups(server().seed_version))
        first = self.client().report(server().seed_version, [1, 0, 1, 0], policy="trainer", policy_version="44", idempotency_key="python-replay-1")
        again = self.client().report(server().seed_version, [1, 0, 1, 0], policy="trainer", policy_version="44", idempotency_key="python-replay-1")
        self.assertEqual((first.replayed, again.replayed, again.group_id), (False, True, first.group_id))
        self.assertEqual(len(server().groups(server().seed_version)), before + 1)
        with self.assertRaises(ConflictError) as other_body:
            self.client().report(server().seed_version, [1, 1, 1, 0], policy="trainer", policy_version="44", idempotency_key="python-replay-1")
        self.assertEqual((other_body.exception.status, other_body.exception.code), (409, "idempotency_key_reused"))

    def test_a_policy_the_token_does_not_name_or_envolve_runs_is_a_403(self) -> None:
        for policy, code in (("trainer-b", "policy_not_allowed"), ("anthropic", "policy_run_by_envolve")):
            with self.assertRaises(PermissionDeniedError) as caught:
                self.client().report(server().seed_version, [1, 0], policy=policy, policy_version="1")
            self.assertEqual(caught.exception.code, code)

    def test_the_token_comes_from_the_environment_when_not_given(self) -> None:
        os.environ["ENVOLVE_TOKEN"] = server().token
        try:
            self.assertEqual(len(EnvolveTrainer(server().url).batch(size=1).environments), 1)
        finally:
            del os.environ["ENVOLVE_TOKEN"]
        with self.assertRaisesRegex(ValueError, "ENVOLVE_TOKEN"):
            EnvolveTrainer(server().url)

    def test_a_wrong_token_is_a_401_that_says_how_to_make_one(self) -> None:
        with self.assertRaises(AuthenticationError) as caught:
            self.client(token="envolve_not-a-token").batch()
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "invalid_token"))
        self.assertIn("envolve tokens create", str(caught.exception))
        self.assertNotIn("envolve_not-a-token", str(caught.exception))

    def test_a_token_of_another_role_and_a_held_out_version_are_403s_with_the_servers_reason(self) -> None:
        with self.assertRaises(PermissionDeniedError) as reviewer:
            self.client(token=server().reviewer_token).batch()
        self.assertEqual(reviewer.exception.status, 403)
        self.assertTrue(reviewer.exception.message)
        with tempfile.TemporaryDirectory() as dest, self.assertRaises(PermissionDeniedError) as held:
            self.client().download(server().held_out_version, dest)
        self.assertEqual(held.exception.code, "held_out")
        self.assertIn(held.exception.message, str(held.exception))
        self.assertIn("held", held.exception.message)

    def test_rewards_outside_the_task_range_are_a_422_and_record_nothing(self) -> None:
        before = len(server().groups(server().seed_version))
        with self.assertRaises(RefusedError) as caught:
            self.client().report(server().seed_version, [1, 2, 0], policy="trainer", policy_version="43")
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "reward_out_of_range"))
        self.assertIn("reward 2 is outside the range [0, 1]", str(caught.exception))
        self.assertEqual(len(server().groups(server().seed_version)), before)

    def test_an_empty_group_is_a_400_naming_the_field(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client().report(server().seed_version, [], policy="trainer")
        self.assertIn("rewards", caught.exception.message)


def _tar(entries: List[tarfile.TarInfo], contents: Dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for info in entries:
            data = contents.get(info.name)
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return out.getvalue()


def _entry(name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o644, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname = kind, mode, link
    return info


class SafeExtraction(unittest.TestCase):
    def extract(self, archive: bytes) -> Path:
        scratch = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: __import__("shutil").rmtree(scratch, ignore_errors=True))
        (scratch / "a.tar.gz").write_bytes(archive)
        return safe_extract(scratch / "a.tar.gz", scratch / "out")

    def refused(self, archive: bytes, message: str) -> None:
        scratch = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: __import__("shutil").rmtree(scratch, ignore_errors=True))
        (scratch / "a.tar.gz").write_bytes(archive)
        with self.assertRaisesRegex(UnsafeArchiveError, message):
            safe_extract(scratch / "a.tar.gz", scratch / "out")
        self.assertFalse((scratch / "out").exists(), "nothing is kept of a refused archive")
        self.assertEqual(sorted(os.listdir(scratch)), ["a.tar.gz"])

    def test_a_task_unpacks_with_its_executable_bits_only(self) -> None:
        out = self.extract(
            _tar(
                [_entry("./", tarfile.DIRTYPE, 0o755), _entry("./tests/", tarfile.DIRTYPE, 0o755), _entry("./tests/test.sh", mode=0o4755), _entry("./task.toml", mode=0o666)],
                {"./tests/test.sh": b"#!/bin/bash\n", "./task.toml": b"[verifier]\n"},
            )
        )
        self.assertEqual((out / "tests" / "test.sh").stat().st_mode & 0o7777, 0o755)
        self.assertEqual((out / "task.toml").stat().st_mode & 0o7777, 0o644)
        self.assertEqual((out / "task.toml").read_bytes(), b"[verifier]\n")

    def test_path_tricks_links_and_devices_are_refused(self) -> None:
        ok = {"task.toml": b"x"}
        cases = [
            ([_entry("task.toml"), _entry("../escape.sh")], {**ok, "../escape.sh": b"x"}, "climbs out"),
            ([_entry("tests/../../escape.sh")], {"tests/../../escape.sh": b"x"}, "climbs out"),
            ([_entry("/etc/cron.d/evil")], {"/etc/cron.d/evil": b"x"}, "absolute"),
            ([_entry("C:/evil")], {"C:/evil": b"x"}, "absolute"),
            ([_entry("tests\\..\\..\\evil")], {"tests\\..\\..\\evil": b"x"}, "non-POSIX"),
            ([_entry("tests", tarfile.SYMTYPE, link="/etc"), _entry("tests/passwd")], {"tests/passwd": b"x"}, "symlink"),
            ([_entry("task.toml"), _entry("hard", tarfile.LNKTYPE, link="/etc/shadow")], ok, "hard link"),
            ([_entry("dev", tarfile.CHRTYPE)], {}, "device"),
            ([_entry("fifo", tarfile.FIFOTYPE)], {}, "device or special"),
            ([_entry("task.toml"), _entry("task.toml")], ok, "appears twice"),
            ([_entry("tests"), _entry("tests/test.sh")], {"tests": b"x", "tests/test.sh": b"x"}, "needs 'tests' to be a directory"),
        ]
        for entries, contents, message in cases:
            with self.subTest(entries=[e.name for e in entries]):
                self.refused(_tar(entries, contents), message)

    def test_an_archive_that_unpacks_past_the_cap_is_refused(self) -> None:
        scratch = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: __import__("shutil").rmtree(scratch, ignore_errors=True))
        (scratch / "a.tar.gz").write_bytes(_tar([_entry("big")], {"big": b"0" * 4096}))
        with self.assertRaisesRegex(UnsafeArchiveError, "more than 1000 bytes"):
            safe_extract(scratch / "a.tar.gz", scratch / "out", max_bytes=1000)
        self.assertFalse((scratch / "out").exists())


if __name__ == "__main__":
    unittest.main()
