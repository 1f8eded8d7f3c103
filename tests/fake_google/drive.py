"""The Drive v3 endpoints of the fake Google: files created, described, listed, updated, and
their permissions (methods of :class:`~tests.fake_google.server.FakeGoogle`, kept apart: the
server is long enough)."""
from __future__ import annotations

import re
import string
from typing import Any

from .model import ROLE_RANK, SPREADSHEET_MIME, ApiError, File, Sheet, _unq


class DriveFiles:
    """Drive's files and permissions (methods of FakeGoogle)."""
    files: dict
    rng: Any
    clock: Any
    invitations: Any
    _perm_ids: int
    _file: Any

    # ---- drive
    def _new_id(self, n: int = 44) -> str:
        alphabet = string.ascii_letters + string.digits + "-_"
        while True:
            fid = "1" + "".join(self.rng.choice(alphabet) for _ in range(n - 1))
            if fid not in self.files:
                return fid

    def _perm(self, kind: str, role: str, email: str | None) -> dict:
        self._perm_ids += 1
        p = {"kind": "drive#permission", "id": f"{10 ** 19 + self._perm_ids}", "type": kind, "role": role}
        if email:
            p["emailAddress"] = email
            p["displayName"] = email.split("@")[0]
        else:
            p["id"] = "anyoneWithLink"
        return p

    def _files_create(self, body: dict, q: dict, who: str) -> dict:
        parents = body.get("parents") or []
        for parent in parents:
            pf = self.files.get(parent)
            if pf is None or (pf.owner != who and ROLE_RANK.get(pf.role(who) or "", 0) < 2):
                raise ApiError(404, f"File not found: {parent}.", reason="notFound")
        if who.endswith("gserviceaccount.com") and not parents:
            raise ApiError(403, "Service Accounts do not have storage quota. Leverage shared drives, or use "
                                "OAuth delegation instead.", reason="storageQuotaExceeded")
        mime = body.get("mimeType") or "application/octet-stream"
        f = File(id=self._new_id(), name=body.get("name") or "Untitled", mime=mime, owner=who,
                 writers_can_share=body.get("writersCanShare", True),
                 copy_requires_writer=body.get("copyRequiresWriterPermission", False),
                 parents=list(parents), created=self.clock(),
                 app_properties={k: v for k, v in (body.get("appProperties") or {}).items() if v is not None})
        f.permissions.append(self._perm("user", "owner", who))
        if mime == SPREADSHEET_MIME:
            f.sheets.append(Sheet({"sheetId": 0, "title": "Sheet1", "index": 0, "sheetType": "GRID",
                                   "gridProperties": {"rowCount": 1000, "columnCount": 26}}))
        self.files[f.id] = f
        return self._file_json(f, q.get("fields"))

    def _file_json(self, f: File, fields: str | None) -> dict:
        full = {"kind": "drive#file", "id": f.id, "name": f.name, "mimeType": f.mime,
                "owners": [{"kind": "drive#user", "emailAddress": f.owner, "displayName": f.owner.split("@")[0],
                            "me": True}],
                "writersCanShare": f.writers_can_share,
                "copyRequiresWriterPermission": f.copy_requires_writer, "parents": f.parents,
                "createdTime": "2026-01-01T00:00:00.000Z", "modifiedTime": "2026-01-01T00:00:00.000Z",
                "appProperties": dict(f.app_properties), "trashed": f.trashed}
        if not fields:
            return {k: full[k] for k in ("kind", "id", "name", "mimeType")}
        if fields.strip() == "*":
            return full
        top = [re.sub(r"\(.*", "", x).strip() for x in re.split(r",(?![^(]*\))", fields)]
        return {k: full[k] for k in top if k in full}

    # q terms the fake understands (Drive's search grammar, the part sheetbridge uses)
    _Q_TERMS = (
        (re.compile(r"appProperties has \{ ?key ?= ?'((?:[^'\\]|\\.)*)' and value ?= ?'((?:[^'\\]|\\.)*)' ?\}"),
         lambda f, m: f.app_properties.get(_unq(m[1])) == _unq(m[2])),
        (re.compile(r"trashed ?= ?(true|false)"), lambda f, m: f.trashed == (m[1] == "true")),
        (re.compile(r"mimeType ?= ?'((?:[^'\\]|\\.)*)'"), lambda f, m: f.mime == _unq(m[1])),
        (re.compile(r"name ?= ?'((?:[^'\\]|\\.)*)'"), lambda f, m: f.name == _unq(m[1])),
    )

    def _files_list(self, q: dict, who: str) -> dict:
        tests = []
        for term in [t.strip() for t in re.split(r"\s+and\s+(?![^{]*\})", q.get("q", "")) if t.strip()]:
            for regex, test in self._Q_TERMS:
                m = regex.fullmatch(term)
                if m:
                    tests.append((test, m))
                    break
            else:
                raise ApiError(400, "Invalid Value", reason="invalid")
        if not any(t[0] is self._Q_TERMS[1][1] for t in tests):
            tests.append((lambda f, m: not f.trashed, None))        # Drive lists trashed files only if asked
        found = [f for f in self.files.values()
                 if (f.owner == who or f.role(who)) and all(test(f, m) for test, m in tests)]
        found.sort(key=lambda f: (f.created, f.id))
        fields = q.get("fields") or ""
        inner = re.search(r"files\(([^)]*)\)", fields)
        return {"kind": "drive#fileList", "incompleteSearch": False,
                "files": [self._file_json(f, inner[1] if inner else None) for f in found]}

    def _files_update(self, fid: str, body: dict, q: dict, who: str) -> dict:
        f = self.files.get(fid)
        if f is None or f.owner != who:
            f = self._file(fid, who, "writer", drive=True)
        if "trashed" in body and f.owner != who:
            raise ApiError(403, "The user does not have sufficient permissions for this file.",
                           reason="insufficientFilePermissions")
        if body.get("name"):
            f.name = body["name"]
        if "trashed" in body:
            f.trashed = bool(body["trashed"])
        for k, v in (body.get("appProperties") or {}).items():
            if v is None:
                f.app_properties.pop(k, None)
            else:
                f.app_properties[k] = v
        return self._file_json(f, q.get("fields"))

    def _may_share(self, f: File, who: str) -> None:
        role = "owner" if f.owner == who else f.role(who)
        if role != "owner" and not (role == "writer" and f.writers_can_share):
            raise ApiError(403, "The user does not have sufficient permissions for this file.",
                           reason="insufficientFilePermissions")

    def _perm_create(self, fid: str, body: dict, q: dict, who: str) -> dict:
        f = self._file(fid, who, "writer", drive=True)
        self._may_share(f, who)
        kind, role = body["type"], body["role"]
        if kind not in ("user", "group", "domain", "anyone"):
            raise ApiError(400, f"The permission type field you specified is not valid: {kind}.", reason="invalid")
        if role not in ROLE_RANK or role == "owner":
            raise ApiError(400, f"The permission role '{role}' is not supported here.", reason="invalid")
        email = body.get("emailAddress")
        if kind in ("user", "group") and not email:
            raise ApiError(400, "The permission emailAddress field is required for user and group.",
                           reason="required")
        for p in f.permissions:
            if email and p.get("emailAddress", "").lower() == email.lower() and p["role"] != "owner":
                p["role"] = role
                self.invitations[(f.id, email.lower())] += 1      # Google mails them again
                return {k: p[k] for k in ("kind", "id", "type", "role")}
        p = self._perm(kind, role, email)
        f.permissions.append(p)
        if email:
            self.invitations[(f.id, email.lower())] += 1
        return {k: p[k] for k in ("kind", "id", "type", "role")}
