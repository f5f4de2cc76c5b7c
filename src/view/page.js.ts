/**
 * The page's script, inline. Progressive: a page that lays out its sections reads the same without it. It filters
 * the index (rows, their tables and their sections) as the filter input changes, and adds buttons to expand or
 * collapse every tool call. On a page of many runs, whose sections are set aside (`data-inert`, their content a
 * comment), it opens a section when a link leads to it or to an id it holds, and adds a button that opens the
 * sections of the rows listed. It never fetches anything.
 */
export const PAGE_JS = `(function () {
  'use strict';
  var list = function (selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); };
  var filter = document.getElementById('filter');
  var rows = list('#index tbody tr[data-file]');
  var parts = list('#index .index-part');
  var sections = list('section.trajectory[data-file]');
  var status = document.getElementById('filter-status');
  var texts;
  var inert = function (section) { return section.hasAttribute('data-inert'); };
  // A section set aside: its content, held as the text of a comment, becomes elements.
  function open(section) {
    if (!section || !inert(section)) return;
    var held = section.firstChild;
    section.removeAttribute('data-inert');
    section.removeAttribute('data-anchors');
    section.innerHTML = held && held.nodeType === Node.COMMENT_NODE ? held.data : '';
    section.hidden = false;
  }
  function apply() {
    var words = (filter.value || '').toLowerCase().split(/\\s+/).filter(Boolean);
    texts = texts || rows.map(function (row) {
      return (row.getAttribute('data-file') + ' ' + row.textContent).toLowerCase();
    });
    var shown = {};
    var count = 0;
    rows.forEach(function (row, i) {
      var match = words.every(function (word) { return texts[i].indexOf(word) !== -1; });
      row.hidden = !match;
      if (match) { shown[row.getAttribute('data-file')] = true; count++; }
    });
    parts.forEach(function (part) { part.hidden = !part.querySelector('tbody tr[data-file]:not([hidden])'); });
    sections.forEach(function (section) {
      section.hidden = inert(section) || !shown[section.getAttribute('data-file')];
    });
    if (status) status.textContent = count + ' of ' + rows.length + ' shown';
  }
  if (filter) {
    filter.addEventListener('input', apply);
    if (filter.value) apply();
    else if (status) status.textContent = rows.length + ' of ' + rows.length + ' shown';
  }
  var tools = document.getElementById('tools');
  function button(text, act) {
    var made = document.createElement('button');
    made.type = 'button';
    made.textContent = text;
    made.addEventListener('click', act);
    tools.appendChild(made);
  }
  if (tools) {
    [['Expand all tool calls', true], ['Collapse all tool calls', false]].forEach(function (pair) {
      button(pair[0], function () {
        document.querySelectorAll('details.call').forEach(function (d) { d.open = pair[1]; });
      });
    });
    if (sections.some(inert)) {
      // At most this many at a time: each is laid out when opened.
      var most = 100;
      button('Open the runs listed', function () {
        var listed = rows.filter(function (row) { return !row.hidden; });
        listed.slice(0, most).forEach(function (row) {
          open(document.getElementById(row.querySelector('a').getAttribute('href').slice(1)));
        });
        if (status) status.textContent = 'opened ' + Math.min(most, listed.length) + ' of the ' + listed.length +
          ' runs listed' + (listed.length > most ? '; filter to open others' : '');
      });
    }
  }
  // A link to a section set aside opens it before the browser follows the link.
  document.addEventListener('click', function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#"]');
    if (link) open(document.getElementById(link.getAttribute('href').slice(1)));
  });
  // A link to a call opens it (and the calls around it, and its section if set aside), so the target is visible.
  function reveal() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (error) { return; }
    if (!/^[A-Za-z0-9_-]+$/.test(id)) return;
    var target = document.getElementById(id);
    var holder = target && inert(target) ? target
      : target ? null : document.querySelector('section[data-inert][data-anchors~="' + id + '"]');
    if (holder) { open(holder); target = document.getElementById(id); }
    for (var node = target; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
    if (holder && target) target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();`;
