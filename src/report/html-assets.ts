/**
 * The inline style and script of `lazytools status --html`: kept beside the page builder, inlined
 * so the page is one file that fetches nothing (its Content-Security-Policy forbids any fetch).
 */

export const REPORT_CSS = `
body{font:14px/1.4 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.1rem;margin:1.5rem 0 .4rem}
.figures{font-weight:normal;color:#555;font-size:.9rem}
b.ok{color:#1a7f37}b.over{color:#cf222e}
.row{display:flex;align-items:center;gap:.5rem;margin:.2rem 0}
.label{width:5.5rem;color:#666;font-size:.8rem;flex:none}
.bar{position:relative;flex:1;height:1.4rem;background:#f3f3f3;display:flex;overflow:visible;border-radius:3px}
.seg{display:block;height:100%;box-sizing:border-box;border-right:1px solid #fff}
.legend{list-style:none;margin:.1rem 0 .4rem 6rem;padding:0;display:flex;flex-wrap:wrap;gap:.1rem .9rem;font-size:.75rem;color:#333}
.legend i{display:inline-block;width:.7rem;height:.7rem;margin-right:.25rem;border-radius:2px;vertical-align:-1px}
.budget{position:absolute;top:-4px;bottom:-4px;width:0;border-left:2px dashed #cf222e}
.held,#unplaced ul{font-size:.85rem}
#q{width:100%;padding:.4rem;font-size:1rem;box-sizing:border-box}
table{border-collapse:collapse;width:100%;font-size:.8rem;margin-top:.5rem}
td,th{border-bottom:1px solid #eee;padding:.2rem .4rem;text-align:left;vertical-align:top}
`;

/**
 * Filters the embedded catalog as the user types: every word must appear in the tool's name, id,
 * server, groups or summary. Rows are built with textContent only, never HTML.
 */
export const REPORT_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('data').textContent);
  var input = document.getElementById('q');
  var rows = document.getElementById('rows');
  var count = document.getElementById('count');
  var LIMIT = 200;
  function cell(tr, text) { var td = document.createElement('td'); td.textContent = text; tr.appendChild(td); }
  function render() {
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var hits = data.catalog.filter(function (tool) {
      var hay = [tool.name, tool.id, tool.server, tool.summary, tool.groups.join(' ')].join(' ').toLowerCase();
      return words.every(function (word) { return hay.indexOf(word) >= 0; });
    });
    rows.textContent = '';
    hits.slice(0, LIMIT).forEach(function (tool) {
      var tr = document.createElement('tr');
      tr.className = 'tool';
      cell(tr, tool.name); cell(tr, tool.server); cell(tr, String(tool.tokens));
      cell(tr, tool.groups.join(', ')); cell(tr, tool.modes.join(', ') || '(only "all")'); cell(tr, tool.summary);
      rows.appendChild(tr);
    });
    count.textContent = hits.length + ' of ' + data.catalog.length + ' tools' + (hits.length > LIMIT ? ', first ' + LIMIT + ' shown' : '');
  }
  input.addEventListener('input', render);
  var start = new URLSearchParams(location.search).get('q');
  if (start) input.value = start;
  render();
})();
`;
