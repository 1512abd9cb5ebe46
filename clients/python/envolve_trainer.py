"""A client for Envolve's trainer API (v1), for RL trainers written in Python.

One file, Python's standard library only (urllib, json, tarfile): copy it next to your trainer
(verl, SkyRL, prime-rl, OpenRLHF, Tinker...) or put this directory on ``PYTHONPATH``.

    from envolve_trainer import EnvolveTrainer

    envolve = EnvolveTrainer("http://127.0.0.1:3000")      # token from ENVOLVE_TOKEN
    batch = envolve.batch(size=8)
    for env in batch.environments:
        task_dir = envolve.download(env, "/tmp/tasks")      # a Harbor task directory
        rewards = run_my_rollouts(task_dir, n=8)             # your rollout engine; None = timed out
        result = envolve.report(env.version_id, rewards, policy="trainer", policy_version="120")
        print(result.passes, "/", result.size, result.advanced)

The token is an Envolve API token of a ``trainer`` account (``envolve tokens create --user
trainer@... --name my-trainer --policy trainer``), sent as ``Authorization: Bearer``; it names the
policies it may report for (``trainer`` by default). Errors from the server are raised as
:class:`EnvolveError` subclasses carrying the server's own message. Connection failures, timeouts and
5xx answers are retried with bounded exponential backoff; a group report carries one
``Idempotency-Key`` through all its attempts, so a lost answer neither loses nor doubles the group.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import tarfile
import tempfile
import time
import uuid
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple, TypeVar, Union

__all__ = [
    "EnvolveTrainer",
    "Batch",
    "BatchEnvironment",
    "ReportResult",
    "EnvolveError",
    "BadRequestError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "GoneError",
    "ConflictError",
    "RefusedError",
    "ServerError",
    "EnvolveConnectionError",
    "UnsafeArchiveError",
    "TOKEN_ENV",
]

TOKEN_ENV = "ENVOLVE_TOKEN"
API_PREFIX = "/api/v1/trainer"
# A task archive larger than this, packed or unpacked, is refused: Envolve caps a task's files far
# below it, so anything bigger is not a task (a decompression bomb, a wrong URL).
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024
_READ_CHUNK = 1024 * 1024

T = TypeVar("T")


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


class EnvolveError(Exception):
    """The server answered with an error. ``status`` is the HTTP status, ``code`` the server's
    error code (``invalid_token``, ``held_out``, ``reward_out_of_range``...), ``message`` its words."""

    def __init__(self, status: int, code: str, message: str, body: Optional[Mapping[str, Any]] = None) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.body: Mapping[str, Any] = body or {}
        super().__init__(self._describe())

    def _describe(self) -> str:
        return f"Envolve answered {self.status} {self.code}: {self.message}"


class BadRequestError(EnvolveError):
    """400: the request did not match the API's schema (the message names each field)."""


class AuthenticationError(EnvolveError):
    """401: no token, or the token is unknown, revoked, or its account deactivated."""

    def _describe(self) -> str:
        return (
            f"Envolve refused the token (401 {self.code}: {self.message}). Create one with "
            f"`envolve tokens create --user <trainer email> --name <what for>` and pass it as "
            f"token= or in ${TOKEN_ENV}."
        )


class PermissionDeniedError(EnvolveError):
    """403: the token's account may not use the trainer API, the report's policy is not one the
    token names (``policy_not_allowed``) or is one Envolve runs itself (``policy_run_by_envolve``),
    or the version is held out."""

    def _describe(self) -> str:
        return f"Envolve forbids this (403 {self.code}): {self.message}"


class NotFoundError(EnvolveError):
    """404: unknown version (or a wrong base URL)."""


class GoneError(EnvolveError):
    """410: the version is no longer served (flagged as a reward hack)."""


class ConflictError(EnvolveError):
    """409: the version is in a state that is not trained on (awaiting review, rejected,
    superseded...: ``body["state"]`` names it), or an Idempotency-Key was sent again with another body."""


class RefusedError(EnvolveError):
    """422: the server understood the request and refused it (e.g. a reward outside the task's range)."""

    def _describe(self) -> str:
        return f"Envolve refused the report (422 {self.code}): {self.message}"


class ServerError(EnvolveError):
    """5xx: the server failed; its log has the reason."""


class EnvolveConnectionError(Exception):
    """The server could not be reached (after the retries, where a retry was safe)."""


class UnsafeArchiveError(Exception):
    """A downloaded task archive holds an entry that could write outside its directory (an
    absolute path, ``..``, a link, a device) or is larger than a task may be. Nothing was kept."""


_ERRORS_BY_STATUS: Dict[int, type] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    422: RefusedError,
}

# Answers that mean "not now" rather than "no": a proxy in front of a restarting server. A group
# report, which carries an Idempotency-Key, retries every 5xx: the server stores a keyed group once.
_RETRY_STATUSES = frozenset({502, 503, 504})
IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotency-Replayed"
# However many retries a caller asks for, one wait between attempts is at most this many seconds.
MAX_BACKOFF_SECONDS = 30.0


# ---------------------------------------------------------------------------------------------
# What the API answers
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchEnvironment:
    """One environment of a batch: a version at (or behind) a lineage's frontier.

    ``passes``/``size`` are those of the latest gating group of ``policy`` at its newest version
    ``policy_version`` (None before any); ``released_by`` is the policy whose group released this
    generation (None for a seed). ``raw`` keeps every field the server sent."""

    version_id: str
    name: str
    lineage_id: str
    generation: int
    policy: str
    policy_version: Optional[str]
    passes: Optional[int]
    size: Optional[int]
    released_by: Optional[str]
    task_url: str
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "BatchEnvironment":
        return cls(
            version_id=str(data["versionId"]),
            name=str(data.get("name", "")),
            lineage_id=str(data["lineageId"]),
            generation=int(data["generation"]),
            policy=str(data.get("policy", "")),
            policy_version=data.get("policy_version"),
            passes=_optional_int(data.get("passes")),
            size=_optional_int(data.get("size")),
            released_by=data.get("released_by"),
            task_url=str(data.get("taskUrl") or f"{API_PREFIX}/environments/{data['versionId']}/task"),
            raw=dict(data),
        )


@dataclass(frozen=True)
class Batch:
    """A training batch. Environments may repeat (a batch spreads over lineages, then starts over);
    :meth:`distinct` gives each version once. ``left_out`` is what the server did not serve and why:
    ``{"total": n, "by_reason": {"saturated": n, "all_fail": n, ...}, "environments": [...]}`` — a
    version the gating policy's newest checkpoint passes 8/8 or fails 0/8 gives a group-relative
    trainer no advantage. ``raw`` is the whole answer."""

    environments: List[BatchEnvironment]
    left_out: Mapping[str, Any] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def distinct(self) -> List[BatchEnvironment]:
        seen: Dict[str, BatchEnvironment] = {}
        for env in self.environments:
            seen.setdefault(env.version_id, env)
        return list(seen.values())


@dataclass(frozen=True)
class ReportResult:
    """The server's answer to a reported group: its pass count under the server's threshold, the
    timeouts it scored, and for each lineage the version serves, where its frontier is now and the
    scheduler's steps (``released``, ``held``, ``waiting``...)."""

    group_id: str
    passes: int
    size: int
    timeouts: int
    advanced: List[Mapping[str, Any]]
    idempotency_key: str = ""  # the key the report was sent with (every attempt used it)
    replayed: bool = False  # the server had stored this group already and answered it again
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, idempotency_key: str = "", replayed: bool = False) -> "ReportResult":
        return cls(
            group_id=str(data["groupId"]),
            passes=int(data["passes"]),
            size=int(data["size"]),
            timeouts=int(data.get("timeouts", 0)),
            advanced=list(data.get("advanced", [])),
            idempotency_key=idempotency_key,
            replayed=replayed,
            raw=dict(data),
        )

    def released(self) -> List[Mapping[str, Any]]:
        """The generations this report released, over every lineage it moved."""
        return [step for lineage in self.advanced for step in lineage.get("steps", []) if step.get("kind") == "released"]


def _optional_int(value: Any) -> Optional[int]:
    return None if value is None else int(value)


# ---------------------------------------------------------------------------------------------
# The client
# ---------------------------------------------------------------------------------------------

Reward = Optional[float]  # None: the rollout timed out (the server scores it with the lineage's timeout reward)


class EnvolveTrainer:
    """A trainer's connection to one Envolve server.

    :param base_url: the server, e.g. ``http://127.0.0.1:3000`` (a trailing ``/api/v1/trainer`` is not needed).
    :param token: an API token of a trainer account; default ``$ENVOLVE_TOKEN``.
    :param timeout: seconds per HTTP request (connect and each read).
    :param retries: further attempts after a connection failure, a timeout or a 502/503/504 (any
        5xx for a group report, which the server stores once per Idempotency-Key).
    :param backoff: seconds before the first retry; doubled each time, at most MAX_BACKOFF_SECONDS.
    """

    def __init__(
        self,
        base_url: str,
        token: Optional[str] = None,
        *,
        timeout: float = 60.0,
        retries: int = 4,
        backoff: float = 0.5,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"base_url must be an http(s) URL such as http://127.0.0.1:3000, not {base_url!r}")
        resolved = token if token is not None else os.environ.get(TOKEN_ENV)
        if not resolved or not resolved.strip():
            raise ValueError(
                f"no Envolve API token: pass token= or set ${TOKEN_ENV} "
                "(create one with `envolve tokens create --user <trainer email> --name <what for>`)"
            )
        if retries < 0 or timeout <= 0 or backoff < 0:
            raise ValueError("retries and backoff must be >= 0 and timeout > 0")
        self.base_url = base_url.rstrip("/")
        self._token = resolved.strip()
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self._sleep = sleep

    def __repr__(self) -> str:  # never the token
        return f"EnvolveTrainer({self.base_url!r})"

    # -- the three calls ---------------------------------------------------------------------

    def batch(self, size: int = 8, seed: Optional[int] = None) -> Batch:
        """Environments to train on, sampled from the lineages' frontiers (never held-out, flagged
        or all-fail versions). The same ``seed`` and server state give the same batch."""
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 1024:
            raise ValueError(f"size must be an integer from 1 to 1024, not {size!r}")
        query: Dict[str, str] = {"size": str(size)}
        if seed is not None:
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**32:
                raise ValueError(f"seed must be an integer from 0 to 2**32 - 1, not {seed!r}")
            query["seed"] = str(seed)
        data = self._json("GET", f"{API_PREFIX}/batch?{urllib.parse.urlencode(query)}")
        environments = [BatchEnvironment.from_json(e) for e in data.get("environments", [])]
        return Batch(environments, left_out=dict(data.get("left_out") or {}), raw=data)

    def download(self, env: Union[BatchEnvironment, str], dest: Union[str, "os.PathLike[str]"]) -> Path:
        """Downloads a served version as a Harbor task and unpacks it into ``dest/<version id>``
        (replacing an earlier copy). Returns that directory. The archive is checked entry by entry
        before anything is written: see :func:`safe_extract`."""
        version_id = env.version_id if isinstance(env, BatchEnvironment) else str(env)
        if not version_id or "/" in version_id or version_id in (".", ".."):
            raise ValueError(f"not a version id: {version_id!r}")
        url = env.task_url if isinstance(env, BatchEnvironment) else f"{API_PREFIX}/environments/{urllib.parse.quote(version_id)}/task"
        target = Path(dest) / version_id
        Path(dest).mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=dest, prefix=".envolve-download-") as scratch:
            archive = Path(scratch) / "task.tar.gz"
            served = self._retrying(lambda: self._download_to(url, archive))
            if served and served != version_id:
                raise EnvolveError(200, "wrong_version", f"asked for version {version_id}, the server sent {served}")
            unpacked = Path(scratch) / "task"
            safe_extract(archive, unpacked)
            if target.exists():
                shutil.rmtree(target)
            unpacked.rename(target)
        return target

    def report(
        self,
        version_id: str,
        rewards: Sequence[Reward],
        *,
        policy: str = "trainer",
        policy_version: str = "",
        timed_out: Optional[Sequence[bool]] = None,
        idempotency_key: Optional[str] = None,
    ) -> ReportResult:
        """Reports the rewards of one rollout group on a version you were served.

        ``policy`` names the policy being trained, one your token names (a lineage gated by it
        counts only its groups); ``policy_version`` is the checkpoint or step that made the
        rollouts. A reward of ``None`` (or ``timed_out[i]``) says the rollout timed out: the server
        scores it, never the trainer.

        The report carries an ``Idempotency-Key`` (``idempotency_key``, or a new UUID: one per
        group) and is retried with it after a connection failure, a timeout or a 5xx, so a lost
        answer neither loses the group nor stores it twice: the server answers a key it has seen
        with the first group (``result.replayed``). Pass the same key again to resume a report
        after a crash; a key sent with another body is refused (:class:`ConflictError`)."""
        if not policy:
            raise ValueError("policy must name the policy being trained")
        key = idempotency_key if idempotency_key is not None else str(uuid.uuid4())
        if not key or len(key) > 200 or any(not 0x21 <= ord(c) <= 0x7E for c in key):
            raise ValueError(f"idempotency_key must be 1 to 200 printable ASCII characters without spaces, not {key!r}")
        body: Dict[str, Any] = {
            "versionId": version_id,
            "rewards": [None if r is None else float(r) for r in rewards],
            "policy": policy,
            "policyVersion": str(policy_version),
        }
        if timed_out is not None:
            body["timedOut"] = [bool(t) for t in timed_out]

        def once() -> ReportResult:
            with self._open(self._request("POST", f"{API_PREFIX}/groups", body, {IDEMPOTENCY_HEADER: key})) as response:
                data = _parse_json(response.read(), response.status)
                replayed = (response.headers.get(REPLAYED_HEADER) or "").lower() == "true"
                return ReportResult.from_json(data, idempotency_key=key, replayed=replayed)

        return self._retrying(once, any_server_error=True)

    # -- HTTP --------------------------------------------------------------------------------

    def _request(
        self, method: str, path: str, body: Optional[Mapping[str, Any]] = None, extra_headers: Optional[Mapping[str, str]] = None
    ) -> urllib.request.Request:
        headers = {"Authorization": f"Bearer {self._token}", "Accept": "application/json", "User-Agent": "envolve-trainer-python/1"}
        headers.update(extra_headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)

    def _json(self, method: str, path: str) -> Dict[str, Any]:
        def once() -> Dict[str, Any]:
            with self._open(self._request(method, path)) as response:
                return _parse_json(response.read(), response.status)

        return self._retrying(once)

    def _download_to(self, path: str, archive: Path) -> Optional[str]:
        with self._open(self._request("GET", path)) as response, open(archive, "wb") as out:
            written = 0
            while True:
                chunk = response.read(_READ_CHUNK)
                if not chunk:
                    break
                written += len(chunk)
                if written > MAX_ARCHIVE_BYTES:
                    raise UnsafeArchiveError(f"the task archive is larger than {MAX_ARCHIVE_BYTES} bytes; refused")
                out.write(chunk)
            return response.headers.get("x-envolve-version")

    def _open(self, request: urllib.request.Request) -> Any:
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as err:
            raise _error_from(err) from None

    def _retrying(self, call: Callable[[], T], *, any_server_error: bool = False) -> T:
        """``call()``, again after a connection failure, a timeout or a 502/503/504 (any 5xx when
        ``any_server_error``: a keyed group report), at most ``retries`` more times, waiting
        ``backoff`` seconds, doubled each time up to MAX_BACKOFF_SECONDS."""
        delay = self.backoff
        for attempt in range(self.retries + 1):
            try:
                return call()
            except ServerError as err:
                retryable = err.status >= 500 if any_server_error else err.status in _RETRY_STATUSES
                if not retryable or attempt == self.retries:
                    raise
            except (urllib.error.URLError, ConnectionError, socket.timeout, TimeoutError, http.client.HTTPException) as err:
                if attempt == self.retries:
                    raise EnvolveConnectionError(f"cannot reach Envolve at {self.base_url} after {attempt + 1} attempts: {_reason(err)}") from err
            self._sleep(min(delay, MAX_BACKOFF_SECONDS))
            delay *= 2
        raise AssertionError("unreachable")


def _reason(err: BaseException) -> str:
    reason = getattr(err, "reason", None)
    return str(reason if reason is not None else err) or type(err).__name__


def _parse_json(raw: bytes, status: int) -> Dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise EnvolveError(status, "not_json", f"the server's answer is not JSON: {raw[:200]!r}") from None
    if not isinstance(data, dict):
        raise EnvolveError(status, "not_json", f"the server's answer is not a JSON object: {raw[:200]!r}")
    return data


def _error_from(err: urllib.error.HTTPError) -> EnvolveError:
    raw = err.read() or b""
    code, message, body = "http_error", str(err.reason or ""), {}
    try:
        parsed = json.loads(raw.decode("utf-8"))
        if isinstance(parsed, dict):
            body = parsed
            code = str(parsed.get("error", code))
            message = str(parsed.get("message", message))
    except (UnicodeDecodeError, json.JSONDecodeError):
        if raw:
            message = raw[:200].decode("utf-8", "replace")
    cls = _ERRORS_BY_STATUS.get(err.code, ServerError if err.code >= 500 else EnvolveError)
    return cls(err.code, code, message or f"HTTP {err.code}", body)


# ---------------------------------------------------------------------------------------------
# Safe extraction
# ---------------------------------------------------------------------------------------------


def safe_extract(archive: Union[str, "os.PathLike[str]"], dest: Union[str, "os.PathLike[str]"], *, max_bytes: int = MAX_ARCHIVE_BYTES) -> Path:
    """Unpacks a task archive (.tar or .tar.gz) into the new directory ``dest``.

    Every entry is checked before anything is written: only regular files and directories, with
    relative names that stay inside ``dest`` (no absolute paths, no ``..``, no drive letters or
    backslashes), each name once, and at most ``max_bytes`` unpacked. Symlinks, hard links and
    devices are refused, not skipped: a task is plain files. Files keep only their executable bit.
    Raises :class:`UnsafeArchiveError` naming the entry, and leaves nothing behind."""
    root = Path(dest)
    with tarfile.open(archive, mode="r:*") as tar:
        members = tar.getmembers()
        plan = _checked_members(members, max_bytes)
        root.mkdir(parents=True, exist_ok=False)
        try:
            for member, relative in plan:
                target = root.joinpath(*relative.parts)
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                source = tar.extractfile(member)
                if source is None:
                    raise UnsafeArchiveError(f"archive entry {member.name!r} has no content")
                with source, open(target, "xb") as out:
                    shutil.copyfileobj(source, out, _READ_CHUNK)
                target.chmod(0o755 if member.mode & 0o111 else 0o644)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
    return root


def _checked_members(members: List[tarfile.TarInfo], max_bytes: int) -> List[Tuple[tarfile.TarInfo, PurePosixPath]]:
    plan: List[Tuple[tarfile.TarInfo, PurePosixPath]] = []
    files: Set[PurePosixPath] = set()
    dirs: Set[PurePosixPath] = set()
    total = 0
    for member in members:
        name = member.name
        if not (member.isfile() or member.isdir()):
            kind = "a symlink" if member.issym() else "a hard link" if member.islnk() else "a device or special file"
            raise UnsafeArchiveError(f"archive entry {name!r} is {kind}; a task archive holds only files and directories")
        if not name or "\\" in name or "\x00" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
            raise UnsafeArchiveError(f"archive entry {name!r} has an absolute or non-POSIX path")
        parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
        if ".." in parts:
            raise UnsafeArchiveError(f"archive entry {name!r} climbs out of the task directory ('..')")
        if not parts:
            continue  # the archive's own root, "./"
        relative = PurePosixPath(*parts)
        if relative in files or (member.isfile() and relative in dirs):
            raise UnsafeArchiveError(f"archive entry {name!r} appears twice (or as a file and a directory)")
        if member.isfile():
            files.add(relative)
            total += member.size
            if total > max_bytes:
                raise UnsafeArchiveError(f"the archive unpacks to more than {max_bytes} bytes; refused")
        else:
            dirs.add(relative)
        plan.append((member, relative))
    # A file may not stand where another entry needs a directory (a/b as a file, then a/b/c).
    for member, relative in plan:
        for parent in relative.parents:
            if parent in files:
                raise UnsafeArchiveError(f"archive entry {member.name!r} needs {str(parent)!r} to be a directory, but it is a file")
    return plan
