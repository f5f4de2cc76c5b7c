/**
 * The page's script, inline. Progressive only: the page reads the same without it. It filters the index
 * (rows and their sections) as the filter input changes, and adds buttons to expand or collapse every
 * tool call. It never fetches anything.
 */
export const PAGE_JS = `(function () {
  'use strict';
  var filter = document.getElementById('filter');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#index tbody tr[data-file]'));
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.trajectory[data-file]'));
  var status = document.getElementById('filter-status');
  function apply() {
    var words = (filter.value || '').toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = {};
    var count = 0;
    rows.forEach(function (row) {
      var text = (row.getAttribute('data-file') + ' ' + row.textContent).toLowerCase();
      var match = words.every(function (word) { return text.indexOf(word) !== -1; });
      row.hidden = !match;
      if (match) { shown[row.getAttribute('data-file')] = true; count++; }
    });
    sections.forEach(function (section) { section.hidden = !shown[section.getAttribute('data-file')]; });
    if (status) status.textContent = count + ' of ' + rows.length + ' shown';
  }
  if (filter) { filter.addEventListener('input', apply); apply(); }
  var tools = document.getElementById('tools');
  if (tools) {
    [['Expand all tool calls', true], ['Collapse all tool calls', false]].forEach(function (pair) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = pair[0];
      button.addEventListener('click', function () {
        document.querySelectorAll('details.call').forEach(function (d) { d.open = pair[1]; });
      });
      tools.appendChild(button);
    });
  }
  // A link to a call opens it (and the calls around it), so the target is visible.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var node = target; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();`;
