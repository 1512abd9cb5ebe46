"""Tests of envolve_trainer.py's retries, against a stand-in for the network (no Envolve server or
build needed):

    python3 -m unittest discover -s clients/python -t clients/python

A group report carries one Idempotency-Key through all its attempts and is retried after a dropped
connection, a timeout or a 5xx; a batch is retried after connection failures and 502/503/504. The
stand-in keeps groups by key the way Envolve does (test/trainer and lib/scheduler test the server's
side): a key seen before answers its first group with `Idempotency-Replayed: true`.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from envolve_trainer import MAX_BACKOFF_SECONDS, EnvolveConnectionError, EnvolveTrainer, ServerError  # noqa: E402

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Groups(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, faults: Dict[int, str]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        # The n-th request (1-based) -> what goes wrong with it: "drop-after-store" (the group is
        # stored, the answer lost), "drop-before-store", "500", "503", or "stall" (no answer in time).
        self.faults = faults
        self.lock = threading.Lock()
        self.attempts = 0
        self.keys: List[str] = []  # the Idempotency-Key of every attempt, in order
        self.stored: Dict[str, Dict[str, Any]] = {}  # key -> the group stored for it
        self.release = threading.Event()  # a stalled request waits for this

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: _Groups

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _answer(self, status: int, body: Dict[str, Any], headers: Optional[Dict[str, str]] = None) -> None:
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def _drop(self) -> None:
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        key = self.headers.get("Idempotency-Key") or ""
        with self.server.lock:
            self.server.attempts += 1
            attempt = self.server.attempts
            self.server.keys.append(key)
            fault = self.server.faults.get(attempt)
            if fault == "drop-before-store":
                return self._drop()
            if fault == "500":
                return self._answer(500, {"error": "internal", "message": "the server failed"})
            replayed = key in self.server.stored
            if not replayed:
                passes = sum(1 for r in body["rewards"] if r == 1)
                number = len(self.server.stored) + 1
                self.server.stored[key] = {"groupId": f"group-{number}", "passes": passes, "size": len(body["rewards"]), "timeouts": 0, "advanced": []}
            group = self.server.stored[key]
        if fault == "drop-after-store":
            return self._drop()
        if fault == "stall":
            self.server.release.wait(10)
            return self._drop()
        self._answer(200 if replayed else 201, group, {"Idempotency-Replayed": "true"} if replayed else {})

    def do_GET(self) -> None:
        with self.server.lock:
            self.server.attempts += 1
            fault = self.server.faults.get(self.server.attempts)
        if fault == "503":
            return self._answer(503, {"error": "unavailable", "message": "restarting"})
        if fault == "500":
            return self._answer(500, {"error": "internal", "message": "the server failed"})
        self._answer(200, {"environments": [], "left_out": {"total": 0, "by_reason": {}, "environments": []}})


class GroupReportRetries(unittest.TestCase):
    def serve(self, faults: Dict[int, str]) -> _Groups:
        server = _Groups(faults)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        self.addCleanup(server.release.set)
        return server

    def client(self, server: _Groups, delays: List[float], **kwargs: Any) -> EnvolveTrainer:
        return EnvolveTrainer(server.url, "t", sleep=delays.append, **{"retries": 4, "backoff": 0.1, "timeout": 5, **kwargs})

    def test_an_answer_lost_after_the_group_was_stored_is_asked_again_with_the_same_key_and_not_doubled(self) -> None:
        server = self.serve({1: "drop-after-store"})
        delays: List[float] = []
        result = self.client(server, delays).report("v", [1, 0, 1], policy="trainer", policy_version="7")
        self.assertEqual(server.attempts, 2)
        self.assertEqual(len(set(server.keys)), 1)  # one key for every attempt at this group
        self.assertEqual(len(server.stored), 1)
        self.assertEqual((result.group_id, result.replayed, result.idempotency_key), ("group-1", True, server.keys[0]))
        self.assertEqual(delays, [0.1])

    def test_a_connection_dropped_before_storing_and_a_500_are_retried_until_the_group_is_stored_once(self) -> None:
        server = self.serve({1: "drop-before-store", 2: "500", 3: "drop-after-store"})
        delays: List[float] = []
        result = self.client(server, delays).report("v", [1, 1], policy="trainer")
        self.assertEqual(server.attempts, 4)
        self.assertEqual(len(set(server.keys)), 1)
        self.assertEqual(len(server.stored), 1)
        self.assertEqual((result.group_id, result.passes, result.replayed), ("group-1", 2, True))
        self.assertEqual(delays, [0.1, 0.2, 0.4])  # exponential backoff between the four attempts

    def test_a_timeout_is_retried_with_the_same_key(self) -> None:
        server = self.serve({1: "stall"})
        delays: List[float] = []
        result = self.client(server, delays, timeout=0.5).report("v", [1], policy="trainer")
        server.release.set()
        self.assertEqual(len(set(server.keys)), 1)
        self.assertEqual(len(server.stored), 1)
        self.assertEqual((result.group_id, result.replayed), ("group-1", True))

    def test_each_group_gets_its_own_key_and_a_given_key_is_sent_as_is(self) -> None:
        server = self.serve({})
        client = self.client(server, [])
        first = client.report("v", [1], policy="trainer")
        second = client.report("v", [1], policy="trainer")
        resumed = client.report("v", [1], policy="trainer", idempotency_key=first.idempotency_key)
        self.assertNotEqual(first.idempotency_key, second.idempotency_key)
        self.assertEqual((first.replayed, second.replayed, resumed.replayed), (False, False, True))
        self.assertEqual(resumed.group_id, first.group_id)
        with self.assertRaisesRegex(ValueError, "idempotency_key"):
            client.report("v", [1], policy="trainer", idempotency_key="has space")

    def test_retries_are_bounded_and_the_wait_is_capped(self) -> None:
        server = self.serve({n: "500" for n in range(1, 20)})
        delays: List[float] = []
        with self.assertRaises(ServerError) as caught:
            self.client(server, delays, retries=9, backoff=1).report("v", [1], policy="trainer")
        self.assertEqual(caught.exception.status, 500)
        self.assertEqual(server.attempts, 10)
        self.assertEqual(delays, [1, 2, 4, 8, 16, MAX_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS])
        self.assertEqual(len(server.stored), 0)


class BatchRetries(unittest.TestCase):
    def test_a_refused_connection_is_retried_with_backoff_then_reported(self) -> None:
        delays: List[float] = []
        client = EnvolveTrainer(f"http://127.0.0.1:{free_port()}", "t", retries=3, backoff=0.1, sleep=delays.append)
        with self.assertRaisesRegex(EnvolveConnectionError, "after 4 attempts"):
            client.batch()
        self.assertEqual(delays, [0.1, 0.2, 0.4])

    def test_a_503_is_retried_but_a_500_on_a_batch_is_not(self) -> None:
        server = _Groups({1: "503", 2: "500"})
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        client = EnvolveTrainer(server.url, "t", retries=3, backoff=0, sleep=lambda _: None)
        with self.assertRaises(ServerError) as caught:
            client.batch()
        self.assertEqual((caught.exception.status, server.attempts), (500, 2))
        self.assertEqual(client.batch().environments, [])


class Arguments(unittest.TestCase):
    def test_arguments_are_checked_before_anything_is_sent(self) -> None:
        with self.assertRaisesRegex(ValueError, "http"):
            EnvolveTrainer("127.0.0.1:3000", "t")
        client = EnvolveTrainer("http://127.0.0.1:1", "t", retries=0)
        with self.assertRaisesRegex(ValueError, "size"):
            client.batch(size=0)
        with self.assertRaisesRegex(ValueError, "version id"):
            client.download("../x", "/tmp")
        self.assertNotIn("t'", repr(client))


if __name__ == "__main__":
    unittest.main()
