"""Signing in to Google: OAuth (an installed-app client, the token cached and refreshed), a
service account key, or a bare token for the fake; where `sheetbridge auth` keeps its settings."""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Mapping, Sequence

from google.auth import exceptions as auth_errors

from ...core.errors import ConfigError
from .errors import GoogleUnreachable, first_line
from .urls import SCOPES

TOKEN_ENV = "SHEETBRIDGE_GOOGLE_TOKEN"
CONFIG_DIR_ENV = "SHEETBRIDGE_CONFIG_DIR"


def config_dir() -> Path:
    base = os.environ.get(CONFIG_DIR_ENV)
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "sheetbridge"


def default_credentials_path() -> Path:
    return config_dir() / "credentials.json"


def default_token_path() -> Path:
    return config_dir() / "google_token.json"


def auth_settings_path() -> Path:
    return config_dir() / "google.json"


def load_auth_settings() -> dict:
    """What `sheetbridge auth` recorded: {"mode", "credentials", "token"}; {} if nothing."""
    path = auth_settings_path()
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def save_auth_settings(settings: Mapping) -> Path:
    path = auth_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(settings), indent=2) + "\n")
    return path


def check_credentials_file(path: str | os.PathLike, mode: str | None = None) -> str:
    """The kind of a credentials file ("oauth" or "service_account"), or ConfigError with
    one line saying what is wrong. ``mode`` is the kind expected (None: either)."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ConfigError(f"credentials file {p} not found; `sheetbridge auth` explains how to get one")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"credentials file {p} is not valid JSON ({exc}); download it again "
                          "from the Google Cloud console") from None
    if not isinstance(data, dict):
        raise ConfigError(f"credentials file {p} should hold a JSON object")
    if data.get("type") == "service_account":
        kind = "service_account"
        missing = [k for k in ("client_email", "private_key", "token_uri") if not data.get(k)]
        if not missing and "PRIVATE KEY" not in str(data["private_key"]):
            missing = ["private_key (not a PEM key)"]
    elif isinstance(data.get("installed"), dict) or isinstance(data.get("web"), dict):
        kind = "oauth"
        if "web" in data and "installed" not in data:
            raise ConfigError(f"credentials file {p} is a 'Web application' OAuth client; create a "
                              "'Desktop app' client instead (it runs on your computer)")
        missing = [k for k in ("client_id", "client_secret", "auth_uri", "token_uri")
                   if not data["installed"].get(k)]
    else:
        raise ConfigError(f"credentials file {p} is neither an OAuth client secret (an 'installed' "
                          "object) nor a service account key (\"type\": \"service_account\"); "
                          "see credentials.example.json")
    if missing:
        raise ConfigError(f"credentials file {p} ({kind.replace('_', ' ')}) lacks {', '.join(missing)}; "
                          "download it again from the Google Cloud console")
    if mode and mode != kind:
        want = "a service account key" if mode == "service_account" else "an OAuth client secret"
        raise ConfigError(f"credentials file {p} is a {kind.replace('_', ' ')} file, but {want} was expected")
    return kind


def build_credentials(mode: str = "oauth", credentials_path: str | os.PathLike | None = None,
                      token_path: str | os.PathLike | None = None, interactive: bool = True,
                      scopes: Sequence[str] = SCOPES):
    """google-auth credentials for ``mode``:

    - "oauth": an installed-app client secret; the token is cached in ``token_path`` and
      refreshed; without one (or if refreshing fails) the browser flow runs when
      ``interactive``, else ConfigError.
    - "service_account": a service account key file.
    - "token": a bare access token from $SHEETBRIDGE_GOOGLE_TOKEN (testing against a fake).
    """
    if mode == "token":
        token = os.environ.get(TOKEN_ENV)
        if not token:
            raise ConfigError(f"mode 'token' needs an access token in ${TOKEN_ENV}")
        from google.oauth2.credentials import Credentials
        return Credentials(token=token)
    path = Path(credentials_path or default_credentials_path()).expanduser()
    if mode == "service_account":
        check_credentials_file(path, "service_account")
        from google.oauth2 import service_account
        try:
            return service_account.Credentials.from_service_account_file(str(path), scopes=list(scopes))
        except (ValueError, KeyError) as exc:
            raise ConfigError(f"service account key {path} is malformed ({exc}); create a new key "
                              "in the Google Cloud console") from None
    if mode != "oauth":
        raise ConfigError(f"unknown Google auth mode {mode!r}; use 'oauth' or 'service_account'")
    from google.auth.exceptions import RefreshError
    from google.auth.transport.requests import Request
    from google.oauth2.credentials import Credentials
    token_file = Path(token_path or default_token_path()).expanduser()
    creds = None
    if token_file.is_file():
        try:
            creds = Credentials.from_authorized_user_file(str(token_file), list(scopes))
        except (ValueError, KeyError):
            creds = None
    if creds is not None and creds.valid:
        return creds
    if creds is not None and creds.expired and creds.refresh_token:
        try:
            creds.refresh(Request())
            save_token(token_file, creds)
            return creds
        except RefreshError:
            creds = None   # an unpublished app's refresh token expires after 7 days
        except auth_errors.TransportError as exc:
            raise GoogleUnreachable(f"cannot reach Google (no network?): refreshing the Google sign-in "
                                    f"failed ({first_line(exc)}); run the same command again when online") from None
    if not interactive:
        raise ConfigError("the Google sign-in has expired or was never made; run `sheetbridge auth` "
                          "(an unpublished OAuth app's sign-in lasts 7 days)")
    check_credentials_file(path, "oauth")
    from google_auth_oauthlib.flow import InstalledAppFlow
    flow = InstalledAppFlow.from_client_secrets_file(str(path), list(scopes))
    creds = flow.run_local_server(port=0, open_browser=True)
    save_token(token_file, creds)
    return creds


def save_token(path: Path, creds) -> None:
    """Cache an OAuth token, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(creds.to_json())
    try:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    except OSError:
        pass


def sign_in_settings(config: Mapping[str, Any]) -> dict:
    """How a game signs in: its config's settings, else what `sheetbridge auth` recorded."""
    saved = load_auth_settings()
    return {"mode": config.get("mode") or saved.get("mode") or "oauth",
            "credentials": config.get("credentials") or saved.get("credentials"),
            "token": config.get("token") or saved.get("token"),
            "api_base": config.get("api_base"),
            "folder_id": config.get("folder_id") or saved.get("folder_id")}
