// The page-side functions the browser test calls as cx.name(...): the body
// of a function run once per loaded page (browser_test.go installs it).
const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length) &&
  getComputedStyle(e).visibility !== 'hidden';
const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
const lastVisible = (css) => {
  const all = Array.from(document.querySelectorAll(css)).filter(visible);
  return all.length ? all[all.length - 1] : null;
};
// moving: something on the page is opening, closing, showing or hiding
// (AngularJS's ngAnimate marks such elements .ng-animate; antd animates
// dialogs, lists and calendars): a click lands where things were, and
// the text read is neither the old nor the new.
const moving = () => !!document.querySelector('.ng-animate, [class*="ant-slide-"], [class*="ant-zoom-"], [class*="ant-move-"], [class*="ant-fade-"]');
// clickable: e is visible, nothing is moving, and nothing covers its
// centre (a loading overlay, a closing dialog), so a user's click reaches it.
const clickable = (e) => {
  if (!e || !visible(e) || moving()) return false;
  e.scrollIntoView({block: 'center', inline: 'center'});
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (e === hit || e.contains(hit));
};
// byText: the last visible element matching css whose text is text.
const byText = (css, text) => {
  const all = Array.from(document.querySelectorAll(css)).filter(visible)
    .filter(e => norm(e.innerText || e.value) === norm(text));
  return all.length ? all[all.length - 1] : null;
};
// hasAll: the last visible element matching css shows every text.
const hasAll = (css, texts) => {
  const e = lastVisible(css);
  return !!e && texts.every(x => e.innerText.includes(x));
};
const rowText = (tr) => Array.from(tr.children)
  .map(c => (c.innerText || '').replace(/\s+/g, ' ').trim()).join(' | ');
const directRows = (t) => Array.from(t.querySelectorAll(':scope > tbody > tr, :scope > thead > tr, :scope > tr'));
const fieldValue = (e) => {
  if (e.type === 'checkbox' || e.type === 'radio') return e.checked ? '[x]' : '[ ]';
  if (e.tagName === 'SELECT') return '[' + Array.from(e.selectedOptions).map(o => o.text).join(', ') + ']';
  if (e.getAttribute('role') === 'switch') return e.getAttribute('aria-checked') === 'true' ? '[on]' : '[off]';
  return '[' + (e.value || '') + ']';
};
// pageText: what the last visible element matching css shows, as a user
// reads it: its text, each form field as [its value] (a switch as [on] or
// [off]), each table as its header row and its body rows sorted (the
// order of rows is the console's, not the server's; tables inside tables
// first), then any error or warning the page shows (not its notices of
// success, which come and go with the timing of a click). It works on a
// copy laid out off screen.
const pageText = (css) => {
  const root = lastVisible(css);
  if (!root) return '(nothing visible for ' + css + ')\n';
  const fields = 'input, textarea, select, [role=switch]';
  const liveFields = Array.from(root.querySelectorAll(fields));
  const clone = root.cloneNode(true);
  const holder = document.createElement('div');
  holder.style.position = 'absolute';
  holder.style.left = '-99999px';
  holder.style.width = root.getBoundingClientRect().width + 'px';
  holder.appendChild(clone);
  document.body.appendChild(holder);
  Array.from(clone.querySelectorAll(fields)).forEach((f, i) => {
    const live = liveFields[i] || f;
    if (f.type === 'hidden' || (!visible(live) && f.tagName !== 'SELECT')) { f.remove(); return; }
    f.replaceWith(document.createTextNode(' ' + fieldValue(live) + ' '));
  });
  // (a select box shows its choice as text; its search field and the
  // table's hidden measuring row show nothing a user reads)
  clone.querySelectorAll('.chosen-drop, .ant-select-selection-search, .ant-table-measure-row').forEach(d => d.remove());
  Array.from(clone.querySelectorAll('table')).reverse().forEach(tab => {
    const rows = directRows(tab).filter(visible);
    const head = rows.length && rows[0].querySelector(':scope > th') ? [rowText(rows.shift())] : [];
    const pre = document.createElement('pre');
    pre.textContent = '\n' + head.concat(rows.map(rowText).sort()).join('\n') + '\n';
    tab.replaceWith(pre);
  });
  const text = clone.innerText;
  holder.remove();
  const notices = Array.from(document.querySelectorAll(
    '.ui-notification.error, .ui-notification.warning, .alert-danger, ' +
    '.ant-message-notice:has(.ant-message-error, .ant-message-warning), ' +
    '.ant-notification-notice:has(.ant-notification-notice-icon-error, .ant-notification-notice-icon-warning)'))
    .filter(visible).map(e => 'NOTICE: ' + e.innerText.replace(/\s+/g, ' ').trim());
  return text.split('\n').map(l => l.replace(/\s+$/, '')).filter(l => l.trim() !== '')
    .concat(notices).join('\n') + '\n';
};
// matches: an element whose ng-click starts with act, or whose text is act.
const matches = (x, act) => (x.getAttribute('ng-click') || '').startsWith(act) || norm(x.innerText) === norm(act);
// blockAction: the visible button or link of the first visible block
// matching css (a table row, an antd description list) one of whose cells
// reads cell, the innermost such blocks only (a row of a layout table
// holds the rows of the tables inside it); rowAction is that for rows.
const blockAction = (css, cell, act) => {
  const all = Array.from(document.querySelectorAll(css)).filter(visible)
    .filter(b => Array.from(b.querySelectorAll('td, th')).some(c => norm(c.innerText) === norm(cell)));
  const blocks = all.filter(b => !all.some(o => o !== b && b.contains(o)));
  for (const b of blocks) {
    const hit = Array.from(b.querySelectorAll('button, a')).filter(visible).find(x => matches(x, act));
    if (hit) return hit;
  }
  return null;
};
const rowAction = (cell, act) => blockAction('tr', cell, act);
// action: the visible button or link inside the last visible scope.
const action = (scope, act) => {
  const root = lastVisible(scope);
  return root ? Array.from(root.querySelectorAll('button, a, [ng-click]')).filter(visible)
    .find(x => matches(x, act)) || null : null;
};
// field: the visible input of scope bound to an AngularJS model.
const field = (scope, model) => {
  const root = lastVisible(scope);
  return root ? Array.from(root.querySelectorAll('[ng-model="' + model + '"]')).filter(visible).pop() || null : null;
};
// chosen, chosenOption: the box of a chosen.js select (by its name), and
// one of its options once the box is open.
const chosenBox = (scope, name) => {
  const root = lastVisible(scope);
  const sel = root && Array.from(root.querySelectorAll('select[name="' + name + '"]')).pop();
  return sel ? sel.nextElementSibling : null;
};
const chosen = (scope, name) => {
  const c = chosenBox(scope, name);
  return c ? (c.querySelector('.chosen-choices') || c.querySelector('.chosen-single')) : null;
};
const chosenSearch = (scope, name) => {
  const c = chosenBox(scope, name);
  const input = c && c.querySelector('.chosen-search input, .search-field input');
  return input && visible(input) ? input : null;
};
const chosenOption = (scope, name, option) => {
  const c = chosenBox(scope, name);
  return c ? Array.from(c.querySelectorAll('li.active-result')).find(li => norm(li.innerText) === norm(option)) || null : null;
};
// labelled: the field a user fills beside the label that reads text (a
// trailing colon aside) in the last visible scope: the input, select box
// or date box of the label's antd form item, else the first field after
// a bare label.
const fieldOf = (e) => e && e.querySelector('.ant-select-selector, .ant-picker input, textarea, ' +
  'input:not([type=hidden]):not([type=checkbox]):not([type=radio])');
const labelled = (scope, text) => {
  const root = lastVisible(scope);
  if (!root) return null;
  const want = norm(text).replace(/:$/, '');
  const labels = Array.from(root.querySelectorAll('label')).filter(visible)
    .filter(l => norm(l.innerText).replace(/:$/, '') === want);
  for (const l of labels) {
    const f = fieldOf(l.closest('.ant-form-item')) || fieldOf(l.parentElement);
    if (f && visible(f)) return f;
  }
  return null;
};
// selectSearch: the search field of the antd select box e, when the box
// takes typing (showSearch, or several choices).
const selectSearch = (e) => {
  const input = e && e.closest('.ant-select').querySelector('.ant-select-selection-search-input');
  return input && !input.readOnly ? input : null;
};
// option: the visible option of an open antd select box.
const option = (text) => Array.from(document.querySelectorAll('.ant-select-dropdown .ant-select-item-option'))
  .filter(visible).find(o => norm(o.getAttribute('title') || o.innerText) === norm(text)) || null;
const dropdownOpen = () => Array.from(document.querySelectorAll('.ant-select-dropdown, .ant-picker-dropdown'))
  .some(d => visible(d) && !/-hidden\b/.test(d.className));
// pickerOK: the OK button of the open date picker.
const pickerOK = () => Array.from(document.querySelectorAll('.ant-picker-dropdown .ant-picker-ok button'))
  .filter(visible).pop() || null;
// committed: the console's own consume stats (the REST call behind its
// consumer pages, which both consoles have; 2.1.0 asks the broker at
// address, 1.0.0 every broker) show that every group committed, on every
// queue of topic, the broker's max offset. The Delay
// the consumer list shows cannot tell that: it is 0 too while a group has
// no offset on the broker yet (the console then catches the admin's error).
// It asks at most once a second (the browser test polls 5 times a second).
let committedAt = 0, committedLast = false;
const committed = (address, topic, groups) => {
  if (Date.now() - committedAt < 1000) return committedLast;
  committedAt = Date.now();
  committedLast = groups.every(g => {
    const x = new XMLHttpRequest();
    x.open('GET', 'consumer/queryTopicByConsumer.query?consumerGroup=' + encodeURIComponent(g) +
      '&address=' + encodeURIComponent(address), false);
    x.send();
    if (x.status !== 200) return false;
    const stats = (JSON.parse(x.responseText).data || []).find(e => e.topic === topic);
    const queues = stats ? stats.queueStatInfoList || [] : [];
    return queues.length > 0 && queues.every(q => q.brokerOffset > 0 && q.consumerOffset === q.brokerOffset);
  });
  return committedLast;
};
return {visible, moving, clickable, norm, lastVisible, byText, hasAll, pageText, blockAction, rowAction, action, field, chosen, chosenSearch, chosenOption,
  labelled, selectSearch, option, dropdownOpen, pickerOK, committed};
