// The page-side functions the browser test calls as cx.name(...): the body
// of a function run once per loaded page (browser_test.go installs it).
const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length) &&
  getComputedStyle(e).visibility !== 'hidden';
const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
const lastVisible = (css) => {
  const all = Array.from(document.querySelectorAll(css)).filter(visible);
  return all.length ? all[all.length - 1] : null;
};
// clickable: e is visible and nothing covers its centre (a loading
// overlay, a closing dialog), so a user's click reaches it.
const clickable = (e) => {
  if (!e || !visible(e)) return false;
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
  return '[' + (e.value || '') + ']';
};
// pageText: what the last visible element matching css shows, as a user
// reads it: its text, each form field as [its value], each table as its
// header row and its body rows sorted (the order of rows is the
// console's, not the server's; tables inside tables first), then any
// error or notice on the page. It works on a copy laid out off screen.
const pageText = (css) => {
  const root = lastVisible(css);
  if (!root) return '(nothing visible for ' + css + ')\n';
  const liveFields = Array.from(root.querySelectorAll('input, textarea, select'));
  const clone = root.cloneNode(true);
  const holder = document.createElement('div');
  holder.style.position = 'absolute';
  holder.style.left = '-99999px';
  holder.style.width = root.getBoundingClientRect().width + 'px';
  holder.appendChild(clone);
  document.body.appendChild(holder);
  Array.from(clone.querySelectorAll('input, textarea, select')).forEach((f, i) => {
    const live = liveFields[i] || f;
    if (f.type === 'hidden' || (!visible(live) && f.tagName !== 'SELECT')) { f.remove(); return; }
    f.replaceWith(document.createTextNode(' ' + fieldValue(live) + ' '));
  });
  clone.querySelectorAll('.chosen-drop').forEach(d => d.remove());
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
    '.ui-notification, .ant-message-notice, .ant-notification-notice, .alert-danger'))
    .filter(visible).map(e => 'NOTICE: ' + e.innerText.replace(/\s+/g, ' ').trim());
  return text.split('\n').map(l => l.replace(/\s+$/, '')).filter(l => l.trim() !== '')
    .concat(notices).join('\n') + '\n';
};
// matches: an element whose ng-click starts with act, or whose text is act.
const matches = (x, act) => (x.getAttribute('ng-click') || '').startsWith(act) || norm(x.innerText) === norm(act);
// rowAction: the visible button or link of the table row whose first
// cell reads first.
const rowAction = (first, act) => {
  const rows = Array.from(document.querySelectorAll('tr')).filter(visible)
    .filter(tr => tr.children.length && norm(tr.children[0].innerText) === norm(first));
  for (const tr of rows) {
    const hit = Array.from(tr.querySelectorAll('button, a')).filter(visible).find(x => matches(x, act));
    if (hit) return hit;
  }
  return null;
};
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
return {visible, clickable, norm, lastVisible, byText, hasAll, pageText, rowAction, action, field, chosen, chosenSearch, chosenOption};
