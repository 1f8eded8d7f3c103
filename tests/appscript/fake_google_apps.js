// A small fake of the Google Apps Script objects Menu.gs uses, driven by a scenario (JSON on argv[3]).
// It prints what happened as JSON: alerts shown, toasts, the Control tab's rows, the menu built.
'use strict';
const fs = require('fs');
const path = require('path');

const scenario = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const out = { alerts: [], toasts: [], menu: [], returned: null, locks: 0 };
let now = Date.parse(scenario.now);

class Range {
  constructor(sheet, row, col, rows, cols) { Object.assign(this, { sheet, row, col, rows: rows || 1, cols: cols || 1 }); }
  getValue() { return this.sheet.cell(this.row, this.col); }
  getValues() {
    const v = [];
    for (let r = 0; r < this.rows; r++) {
      const line = [];
      for (let c = 0; c < this.cols; c++) line.push(this.sheet.cell(this.row + r, this.col + c));
      v.push(line);
    }
    return v;
  }
}
class Sheet {
  constructor(name, rows) { this.name = name; this.rows = rows.map(r => r.slice()); }
  cell(r, c) { const row = this.rows[r - 1] || []; return row[c - 1] === undefined ? '' : row[c - 1]; }
  getRange(r, c, rows, cols) { return new Range(this, r, c, rows, cols); }
  getDataRange() { return new Range(this, 1, 1, this.rows.length, Math.max(1, ...this.rows.map(r => r.length))); }
  getLastRow() {
    for (let i = this.rows.length; i > 0; i--) if ((this.rows[i - 1] || []).some(v => v !== '')) return i;
    return 0;
  }
  appendRow(values) { this.rows.length = this.getLastRow(); this.rows.push(values.slice()); }
}
const sheets = {};
for (const [name, rows] of Object.entries(scenario.tabs)) sheets[name] = new Sheet(name, rows);
const spreadsheet = {
  getSheetByName: name => sheets[name] || null,
  toast: (msg, title) => out.toasts.push(msg),
};
const answers = (scenario.answers || []).slice();
const ui = {
  ButtonSet: { OK: 'OK', YES_NO: 'YES_NO' },
  Button: { YES: 'YES', NO: 'NO' },
  alert: (title, msg, buttons) => { out.alerts.push({ title, msg, buttons }); return buttons === 'YES_NO' ? (answers.shift() || 'NO') : 'OK'; },
  createMenu: title => { const m = { title, items: [] }; out.menu.push(m);
    return { addItem(label, fn) { m.items.push([label, fn]); return this; }, addToUi() { } }; },
};
global.SpreadsheetApp = { getActiveSpreadsheet: () => spreadsheet, getUi: () => ui, flush: () => { } };
global.Session = { getActiveUser: () => ({ getEmail: () => scenario.user || '' }) };
global.LockService = { getDocumentLock: () => ({ waitLock() { out.locks++; }, releaseLock() { } }) };
let uuid = 0;
// The watcher, simulated: after `answer_after` polls it writes the scripted progress, then the result.
let polls = 0;
global.Utilities = {
  getUuid: () => 'req-' + (++uuid),
  sleep: ms => {
    now += ms; polls++;
    const w = scenario.watcher;
    if (!w) return;
    const control = sheets.Control;
    const row = control.rows[control.rows.length - 1];
    if (polls === 1 && w.progress) row[6] = w.progress;
    if (polls >= (w.answer_after || 2)) { row[5] = w.status; row[7] = w.result; row[8] = 'watcher-1'; }
  },
};
const RealDate = Date;
global.Date = class extends RealDate { constructor(...a) { if (a.length) super(...a); else super(now); } static now() { return now; } static parse(s) { return RealDate.parse(s); } };

const menu = require(path.resolve(process.argv[2]));
if (scenario.call === 'onOpen') menu.onOpen(); else out.returned = menu.sbRun_(scenario.call);
out.control = sheets.Control ? sheets.Control.rows : null;
process.stdout.write(JSON.stringify(out));
