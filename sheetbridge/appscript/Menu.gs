/**
 * The Sheetbridge menu of a master spreadsheet (installed by `sheetbridge menu install DIR`, or pasted
 * by hand: `sheetbridge menu show` prints this file and where it goes).
 *
 * Apps Script cannot run Python. Each menu item appends a request to the Control tab and waits:
 * `sheetbridge watch DIR`, running on the host's computer, runs it with the same orchestrator as
 * the command line and writes the status, progress and result back into the request's row. The
 * heartbeat in row 2 says whether anything is listening.
 *
 * Control tab: row 2 = heartbeat | time (UTC, ISO) | watcher | poll seconds;
 * row 4 = header; from row 5 one request per row:
 * id | action | round | asked by | asked at | status | progress | result | handled by
 */

var SB = {
  TAB: 'Control',
  FIRST_ROW: 5,
  STALE_SECONDS: 120,
  WAIT_SECONDS: 300,       // Apps Script stops a run after 6 minutes: give up waiting before that
  POLL_MS: 2000,
  ACTIONS: [
    // [menu label, action, asks for confirmation with this question (null: no question)]
    ['Who has submitted', 'status', null],
    ['Preview round', 'preview', null],
    ['Resolve round', 'resolve', 'Resolve the open round and publish it to every player?'],
    ['Undo last round', 'undo', 'Undo {round}? Its ledger rows are reversed and the players\u2019 ' +
        'submissions put back.'],
    ['Lock submissions now', 'lock', 'Lock every player\u2019s submission for the open round now?'],
    ['Reopen submissions', 'reopen', 'Reopen the players\u2019 submissions for the open round?'],
    ['Post announcement', 'announce', 'Post the last round\u2019s public announcement?']
  ]
};

function onOpen() {
  var menu = SpreadsheetApp.getUi().createMenu('Sheetbridge');
  for (var i = 0; i < SB.ACTIONS.length; i++) {
    menu.addItem(SB.ACTIONS[i][0], 'sb_' + SB.ACTIONS[i][1]);
  }
  menu.addToUi();
}

function sb_status() { return sbRun_('status'); }
function sb_preview() { return sbRun_('preview'); }
function sb_resolve() { return sbRun_('resolve'); }
function sb_undo() { return sbRun_('undo'); }
function sb_lock() { return sbRun_('lock'); }
function sb_reopen() { return sbRun_('reopen'); }
function sb_announce() { return sbRun_('announce'); }

/** Seconds since the watcher's last heartbeat, or null if there never was one. */
function sbHeartbeatAge_(sheet, now) {
  var when = String(sheet.getRange(2, 2).getValue() || '');
  if (!when) return null;
  var t = Date.parse(when);
  if (isNaN(t)) return null;
  return (now.getTime() - t) / 1000;
}

function sbLabel_(action) {
  for (var i = 0; i < SB.ACTIONS.length; i++) if (SB.ACTIONS[i][1] === action) return SB.ACTIONS[i];
  return null;
}

/** The round open for submissions, as the Config tab shows it. */
function sbOpenRound_(ss) {
  var config = ss.getSheetByName('Config');
  if (!config) return '';
  var values = config.getDataRange().getValues();
  for (var r = 0; r < values.length; r++) if (values[r][0] === 'round') return String(values[r][1]);
  return '';
}

/** The last resolved round, as the Rounds tab shows it ('' if none): an undo request names the round
 * it undoes, so a request sent twice (or run again) cannot undo two rounds. */
function sbLastResolvedRound_(ss) {
  var rounds = ss.getSheetByName('Rounds');
  if (!rounds) return '';
  var values = rounds.getDataRange().getValues();
  var last = '';
  for (var r = 0; r < values.length; r++) if (values[r][1] === 'resolved') last = String(values[r][0]);
  return last;
}

function sbRun_(action) {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var ui = SpreadsheetApp.getUi();
  var entry = sbLabel_(action);
  var sheet = ss.getSheetByName(SB.TAB);
  if (!sheet) {
    ui.alert('Sheetbridge', 'This spreadsheet has no Control tab yet: run `sheetbridge watch DIR` on your ' +
             'computer once, and keep it running while you use this menu.', ui.ButtonSet.OK);
    return 'no-control';
  }
  var age = sbHeartbeatAge_(sheet, new Date());
  if (age === null || age > SB.STALE_SECONDS) {
    ui.alert('Sheetbridge', 'Nothing is listening: run `sheetbridge watch DIR` on your computer (DIR is the ' +
             'game folder), then use the menu again.', ui.ButtonSet.OK);
    return 'not-listening';
  }
  var round = action === 'undo' ? sbLastResolvedRound_(ss) : sbOpenRound_(ss);
  if (entry[2] !== null) {
    var question = entry[2].replace('{round}', round ? 'round ' + round + ', the last resolved round' :
                                    'the last resolved round');
    var answer = ui.alert('Sheetbridge: ' + entry[0], question, ui.ButtonSet.YES_NO);
    if (answer !== ui.Button.YES) return 'cancelled';
  }
  var lock = LockService.getDocumentLock();
  lock.waitLock(10000);   // two clicks at once still give two rows, never one overwritten
  var id;
  try {
    id = Utilities.getUuid();
    var who = Session.getActiveUser().getEmail() || 'the host';
    sheet.appendRow([id, action, round, who, new Date().toISOString(), 'queued', '', '', '']);
    SpreadsheetApp.flush();
  } finally {
    lock.releaseLock();
  }
  return sbWait_(sheet, id, entry[0]);
}

/** Wait for the watcher's answer in the request's row, showing progress; the result in one sentence. */
function sbWait_(sheet, id, label) {
  var ui = SpreadsheetApp.getUi();
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var shown = '';
  var waited = 0;
  while (waited < SB.WAIT_SECONDS * 1000) {
    var row = sbFindRow_(sheet, id);
    if (row) {
      var status = String(row[5]), progress = String(row[6]), result = String(row[7]);
      if (status === 'done' || status === 'failed' || status === 'refused') {
        ui.alert('Sheetbridge: ' + label, (status === 'done' ? '' : 'Not done: ') + result, ui.ButtonSet.OK);
        return status;
      }
      if (progress && progress !== shown) {
        ss.toast(progress, 'Sheetbridge: ' + label, 5);
        shown = progress;
      }
    }
    Utilities.sleep(SB.POLL_MS);
    waited += SB.POLL_MS;
    SpreadsheetApp.flush();
  }
  ui.alert('Sheetbridge: ' + label, 'Still running on your computer; the result will appear in the Control ' +
           'tab (request ' + id + ').', ui.ButtonSet.OK);
  return 'waiting';
}

function sbFindRow_(sheet, id) {
  var last = sheet.getLastRow();
  if (last < SB.FIRST_ROW) return null;
  var values = sheet.getRange(SB.FIRST_ROW, 1, last - SB.FIRST_ROW + 1, 9).getValues();
  for (var i = values.length - 1; i >= 0; i--) if (values[i][0] === id) return values[i];
  return null;
}

if (typeof module !== 'undefined') {   // Node: the tests load this file and drive it against fakes
  module.exports = { onOpen: onOpen, sbRun_: sbRun_, SB: SB, sb_resolve: sb_resolve, sb_status: sb_status };
}
