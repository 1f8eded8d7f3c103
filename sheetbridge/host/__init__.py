"""The host: where games meet sheets. Every command reads (one batched read per book), computes with
the pure core, then writes (one batched write per book that changed), master first, under the game's lock.

Rooms (import one way: cli > host > sheets > games > core; nothing here imports the CLI):

- Opening a game: ``session`` (the store, ``load`` the master, what every command starts with),
  ``config`` (sheetbridge.json and the Config tab), ``players``, ``clock`` (the one clock read).
- The round transaction: ``books`` (reading every book first), ``transaction`` (plan, commit the
  master with compare-and-set, publish, finish an unfinished publication).
- Commands: ``new``, ``status``, ``resolve``, ``decide``, ``undo`` (and ``undo_guard``: which round),
  ``repair``, ``lock`` (the deadline: lock, reopen, extend), ``demo``, ``substitute``, ``cohosts``,
  ``collect`` (files players send back), ``season``, ``export``.
- What each book shows: ``tabs``, ``identity`` (each book's Identity tab), ``lines`` (short host lines).
- Deadlines: ``deadlines`` (the time arithmetic), ``late_lock`` (entries typed after the lock).
- Media: ``media`` (the announcement, confessionals, the menu's preview), ``announce`` and
  ``discord_text`` (Discord), ``round_posts`` and ``opening`` (the week's posts), ``confessionals``,
  ``pictures`` (Pillow), ``picture_files`` (the PNGs in the game folder), ``private_pictures``.
- The menu: ``control`` (the Control tab), ``control_writes`` (what watch writes), ``watch``.
"""
