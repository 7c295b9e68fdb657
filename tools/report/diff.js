// diff.js - draws rp-report --diff --format html from the JSON block the
// page carries (tools/report/diffhtml.c; fields in doc/report.md, "--diff").
// No network, no libraries.
(function () {
  'use strict';
  var errors = 0;
  window.addEventListener('error', function () {
    errors++;
    document.body.setAttribute('data-errors', String(errors));
  });
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var a in attrs) {
      if (a === 'text') e.textContent = attrs[a];
      else if (a === 'style') e.style.cssText = attrs[a];
      else e.setAttribute(a, attrs[a]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function fx(x, d) { return x == null ? '-' : Number(x).toFixed(d); }
  function sg(x, d) { return x == null ? '-' : (x >= 0 ? '+' : '') + Number(x).toFixed(d); }
  var D = JSON.parse(document.getElementById('rpdiff').textContent);
  var app = document.getElementById('app');
  app.textContent = '';
  function section(id, title, kids) {
    app.appendChild(el('section', {id: id}, [el('h2', {text: title})].concat(kids)));
  }
  function table(id, heads, rows) {
    var t = el('table', {id: id}, [el('tr', {}, heads.map(function (h, i) {
      return el('th', {'class': i === heads.length - 1 ? 'l' : '', text: h}); }))]);
    rows.forEach(function (r) {
      t.appendChild(el('tr', {}, r.map(function (c, i) {
        return el('td', {'class': i === r.length - 1 ? 'l' : '', text: c}); })));
    });
    return t;
  }
  function run(r) {
    return r.source + ': ' + r.program + ', ' + r.ranks + ' ranks, k=' + r.k + ', ' + r.mode +
      ' mode, wall ' + fx(r.wall_seconds, 3) + ' s';
  }
  app.appendChild(el('h1', {text: 'rpprof: two runs compared'}));
  app.appendChild(el('p', {id: 'runs', text: 'before: ' + run(D.before) + '; after: ' + run(D.after)}));
  ['before', 'after'].forEach(function (w) {
    if (D.warnings[w].length)
      app.appendChild(el('ul', {id: 'warnings-' + w}, D.warnings[w].map(function (x) {
        return el('li', {'class': 'warn', text: w + ': warning: ' + x.counter + ' = ' + x.value + ': ' +
          x.message + (x.remedy ? '; ' + x.remedy : '')}); })));
  });
  if (D.notes.length)
    app.appendChild(el('ul', {id: 'notes'}, D.notes.map(function (n) {
      return el('li', {'class': 'warn', text: 'note (' + n.kind + '): ' + n.message}); })));

  // the two distributions, bars side by side, and the table
  var lv = D.levels, vmax = 0;
  lv.forEach(function (l) { vmax = Math.max(vmax, l.cost_before_seconds, l.cost_after_seconds); });
  var NS = 'http://www.w3.org/2000/svg', W = 640, H = 24 * lv.length + 30;
  var svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('id', 'dist'); svg.setAttribute('width', W); svg.setAttribute('height', H);
  function sv(tag, at, text) {
    var e = document.createElementNS(NS, tag);
    for (var a in at) e.setAttribute(a, at[a]);
    if (text) e.textContent = text;
    svg.appendChild(e);
  }
  lv.forEach(function (l, i) {
    var y = 6 + 24 * i, s = (W - 170) / (vmax || 1);
    sv('text', {x: 0, y: y + 14}, fx(l.percentile, 1) + '%');
    sv('rect', {x: 60, y: y, width: Math.max(1, l.cost_before_seconds * s), height: 9, fill: '#888',
                'class': 'before'});
    sv('rect', {x: 60, y: y + 10, width: Math.max(1, l.cost_after_seconds * s), height: 9,
                fill: '#4a78c2', 'class': 'after'});
    sv('text', {x: W - 105, y: y + 14}, sg(l.cost_change_seconds, 3) + ' s');
  });
  sv('text', {x: 60, y: H - 4}, 'grey: before, blue: after (path cost, seconds)');
  var lt = table('levels', ['percentile', 'before [s]', 'after [s]', 'change [s]', 'change', 'what it is'],
    lv.map(function (l) {
      return [fx(l.percentile, 1) + '%', fx(l.cost_before_seconds, 6), fx(l.cost_after_seconds, 6),
              sg(l.cost_change_seconds, 6), l.change_percent == null ? '-' : sg(l.change_percent, 1) + '%',
              l.exact ? 'exact' : 'estimated'];
    }));
  if (D.spread)
    lt.appendChild(el('tr', {}, ['100%-0%', fx(D.spread.spread_before_seconds, 6),
      fx(D.spread.spread_after_seconds, 6), sg(D.spread.spread_change_seconds, 6),
      D.spread.change_percent == null ? '-' : sg(D.spread.change_percent, 1) + '%', 'spread']
      .map(function (c, i) { return el('td', {'class': i === 5 ? 'l' : '', text: c}); })));

  // differential flame graph of the critical path, from its contexts
  var flame = null, cp = D.critical_path;
  if (cp) {
    var root = {name: '<program>', a: 0, b: 0, kids: {}, order: []};
    cp.contexts.forEach(function (c) {
      var nd = root;
      root.a += c.before_seconds; root.b += c.after_seconds;
      c.context.split(' > ').forEach(function (f) {
        if (!nd.kids[f]) { nd.kids[f] = {name: f, a: 0, b: 0, kids: {}, order: []}; nd.order.push(f); }
        nd = nd.kids[f];
        nd.a += c.before_seconds; nd.b += c.after_seconds;
      });
    });
    // widths: the mean of before and after, so what vanished stays visible;
    // colour: the change as a share of the larger total
    var tot = Math.max(root.a, root.b) || 1, maxd = 0;
    flame = el('div', {'class': 'flame', id: 'flame-diff'});
    var place = function (nd, x0, w, d) {
      if (w < 0.05) return;
      if (d > maxd) maxd = d;
      var dd = (nd.b - nd.a) / tot, s = Math.min(1, Math.abs(dd) * 4);
      var bg = dd >= 0 ? 'rgb(255,' + Math.round(235 - 150 * s) + ',' + Math.round(225 - 175 * s) + ')'
                       : 'rgb(' + Math.round(225 - 175 * s) + ',' + Math.round(235 - 120 * s) + ',255)';
      flame.appendChild(el('div', {'class': 'fr ' + (dd > 0 ? 'grew' : dd < 0 ? 'shrank' : 'same'),
        title: nd.name + ': ' + fx(nd.a, 4) + ' s -> ' + fx(nd.b, 4) + ' s (' + sg(nd.b - nd.a, 4) + ' s)',
        style: 'left:' + x0.toFixed(3) + '%;width:' + w.toFixed(3) + '%;top:' + (d * 18) +
               'px;background:' + bg, text: nd.name}));
      var x = x0, m = (nd.a + nd.b) || 1;
      nd.order.map(function (k) { return nd.kids[k]; })
        .sort(function (p, q) { return (q.a + q.b) - (p.a + p.b); })
        .forEach(function (c) { var cw = w * (c.a + c.b) / m; place(c, x, cw, d + 1); x += cw; });
    };
    place(root, 0, 100, 0);
    flame.style.height = ((maxd + 1) * 18 + 2) + 'px';
  }
  var side = el('div', {style: 'display:flex;gap:2em;flex-wrap:wrap;align-items:flex-start'},
    [el('div', {}, [svg, lt]), flame ? el('div', {style: 'flex:1;min-width:420px'}, [
      el('h3', {text: 'critical path, differential: widths the mean of before and after, red = grew, blue = shrank'}),
      flame]) : el('p', {'class': 'note', text: 'no flame graph: a run without samples'})]);
  section('distribution', 'Path-length distribution and the critical path', [side]);

  // POP factors
  var P = D.pop, pk = [];
  if (P.before && P.after) {
    var F = [['Parallel efficiency', 'parallel_efficiency'], ['Load balance', 'load_balance'],
      ['Communication efficiency', 'communication_efficiency'],
      ['Serialisation efficiency', 'serialisation_efficiency'], ['Transfer efficiency', 'transfer_efficiency']];
    pk.push(table('pop-table', ['before', 'after', 'change', 'factor'], F.map(function (f) {
      var a = P.before[f[1]], b = P.after[f[1]];
      return [fx(a, 3), fx(b, 3), a == null || b == null ? '-' : sg(b - a, 3), f[0]];
    })));
  } else {
    pk.push(el('p', {'class': 'note', text: 'not compared: ' + (P.before ? 'after' : 'before') +
      ' has no per-rank task time (a merged profile)'}));
  }
  section('pop', 'POP efficiency factors', pk);

  function ctxRows(list, key) {
    return list.slice(0, 30).map(function (c) {
      return [fx(c.before_seconds, 4), fx(c.after_seconds, 4), sg(c.change_seconds, 4) + (c.within_noise ? ' ~' : ''),
              fx(c.samples_before, 0), fx(c.samples_after, 0), c[key]];
    });
  }
  var H6 = ['before [s]', 'after [s]', 'change [s]', 'samples before', 'samples after'];
  [['critical_path', 'on the critical (100 %) path'], ['whole_program', 'whole program']].forEach(function (x) {
    var s = D[x[0]];
    if (!s) return;
    section('ctx-' + x[0], 'Contexts whose time changed most: ' + x[1], [
      el('p', {'class': 'note', text: s.contexts_total + ' contexts, ' + s.contexts_beyond_noise +
        ' changed beyond noise; sampled exclusive time; ~: change within 2 sigma; samples estimated'}),
      table('contexts-' + x[0], H6.concat(['context']), ctxRows(s.contexts, 'context')),
      el('h3', {text: 'by function (inclusive)'}),
      table('functions-' + x[0], H6.concat(['function']),
            ctxRows(s.functions.filter(function (f) { return !f.on_every_context; }), 'function'))]);
  });
  if (D.per_rank)
    section('ranks', 'Per rank (task: outside MPI calls; MPI: inside them, waiting included)', [
      table('rank-table', ['task before [s]', 'task after [s]', 'change [s]', 'MPI before [s]', 'MPI after [s]',
        'change [s]', 'rank'], D.per_rank.map(function (r) {
          return [fx(r.task_before_seconds, 4), fx(r.task_after_seconds, 4), sg(r.task_change_seconds, 4),
                  fx(r.mpi_before_seconds, 4), fx(r.mpi_after_seconds, 4), sg(r.mpi_change_seconds, 4),
                  r.rank + ' (' + r.times + ')'];
        }))]);
  else
    section('ranks', 'Per rank', [el('p', {'class': 'note', text: 'not compared: ' + D.per_rank_omitted})]);
  if (D.mpi_call_sites)
    section('sites', 'MPI time by call site (sampled; ~: change within 2 sigma)', [
      table('site-table', H6.concat(['call from site']), D.mpi_call_sites.map(function (s) {
        return [fx(s.mpi_before_seconds, 4), fx(s.mpi_after_seconds, 4),
                sg(s.mpi_change_seconds, 4) + (s.within_noise ? ' ~' : ''), fx(s.samples_before, 0),
                fx(s.samples_after, 0), s.site];
      }))]);
  document.body.setAttribute('data-ready', '1');
})();
