"""`sheetbridge auth`: set up the Google credentials the --google commands use.

Default: OAuth as an installed ("Desktop app") client; the browser opens once, the
token is cached and refreshed. Alternative: --service-account KEY.json (then new
files must go into a shared-drive folder: a service account has no Drive storage).
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

HOW_TO = (
    "Create one in the Google Cloud console: APIs & Services > Library: enable the Google Sheets API "
    "and the Google Drive API; OAuth consent screen: add yourself as a test user; Credentials > "
    "Create credentials > OAuth client ID > Desktop app > Download JSON, then save it as {path} "
    "(or pass --credentials PATH). credentials.example.json shows the shape; docs/google.md explains."
)


def _auth(credentials: Path | None, service_account: Path | None, token: Path | None,
          folder_id: str | None, no_browser: bool) -> None:
    from ..core.errors import ConfigError
    from ..sheets import google as G     # gspread and google-auth: only for this command
    settings = G.load_auth_settings()
    if service_account is not None:
        path = service_account.expanduser().resolve()
        G.check_credentials_file(path, "service_account")
        creds = G.build_credentials("service_account", path)
        email = getattr(creds, "service_account_email", "?")
        settings.update({"mode": "service_account", "credentials": str(path)})
        if folder_id:
            settings["folder_id"] = folder_id
        saved = G.save_auth_settings(settings)
        click.echo(f"Service account {email} is ready (key {path}); recorded in {saved}.")
        if not settings.get("folder_id"):
            click.echo("Note: a service account has no Drive storage of its own and cannot create files in a "
                       "personal Drive. Share a folder in a shared drive with "
                       f"{email} (as Content manager) and run `sheetbridge auth --service-account {path} "
                       "--folder-id FOLDER_ID`.")
        return
    path = (credentials or Path(settings.get("credentials") or G.default_credentials_path())).expanduser()
    if not path.is_file():
        raise ConfigError(f"no OAuth client file at {path}. " + HOW_TO.format(path=path))
    path = path.resolve()
    G.check_credentials_file(path, "oauth")
    token_path = (token or Path(settings.get("token") or G.default_token_path())).expanduser()
    if no_browser:
        click.echo("Open the address printed below in a browser on this computer to sign in.")
    from google_auth_oauthlib.flow import InstalledAppFlow
    flow = InstalledAppFlow.from_client_secrets_file(str(path), list(G.SCOPES))
    try:
        creds = flow.run_local_server(port=0, open_browser=not no_browser)
    except Exception as exc:      # exchanging the sign-in for a token needs Google
        from . import unreachable
        line = unreachable(exc)
        if line is None:
            raise
        raise G.GoogleUnreachable(line) from None
    G.save_token(token_path, creds)
    settings.update({"mode": "oauth", "credentials": str(path), "token": str(token_path)})
    settings.pop("folder_id", None)
    saved = G.save_auth_settings(settings)
    click.echo(f"Signed in. Token cached in {token_path} (readable by you only); settings in {saved}.")
    click.echo("While the OAuth app is unpublished ('Testing'), Google expires this sign-in after 7 days: "
               "run `sheetbridge auth` again when a command says so.")


@click.option("--credentials", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="OAuth client secret JSON (a 'Desktop app' client). "
                   "Default: ~/.config/sheetbridge/credentials.json.")
@click.option("--service-account", "service_account", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Use a service account key JSON instead of signing in.")
@click.option("--folder-id", default=None, help="Drive folder (in a shared drive) where new spreadsheets go; "
                                                "needed with --service-account.")
@click.option("--token", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to cache the OAuth token. Default: ~/.config/sheetbridge/google_token.json.")
@click.option("--no-browser", is_flag=True, help="Print the sign-in address instead of opening a browser.")
def _command(credentials, service_account, folder_id, token, no_browser) -> None:
    """Set up Google credentials for --google games (OAuth sign-in, or a service account)."""
    from ..core.errors import SheetbridgeError
    try:
        _auth(credentials, service_account, token, folder_id, no_browser)
    except SheetbridgeError as e:      # the convention of every command, even when run on its own
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


command = click.command("auth")(_command)
