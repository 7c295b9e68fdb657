// report_html.js - draws rp-report --format html from the JSON blocks the
// page carries (tools/report/html.c).  No network, no libraries.
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
  function blk(id) {
    var b = document.getElementById(id);
    return b ? JSON.parse(b.textContent) : null;
  }
  function fx(x, d) { return Number(x).toFixed(d); }
  var D = blk('rpdata'), T = blk('rptree') || [], PH = blk('rpphases');
  var k = D.k, app = document.getElementById('app');
  // rptree rows: [parent, name, inclusive ns of column 0 (rank), 1 (MPI), 2.. (paths)]
  app.textContent = '';
  var PATH0 = 4, COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b',
    '#17becf', '#e377c2', '#bcbd22', '#7f7f7f'];
  function pctName(j) { return fx(D.paths[j].percentile, 0) + '%'; }
  function section(id, title, kids) {
    app.appendChild(el('section', {id: id}, [el('h2', {text: title})].concat(kids)));
  }

  // header
  app.appendChild(el('h1', {text: 'rpprof: ' + D.program}));
  app.appendChild(el('p', {id: 'summary', text: D.ranks + ' of ' + D.ranks_expected +
    ' ranks, k=' + k + ' paths (' + D.select + '), mode ' + D.mode + ', ' + D.phases +
    ' phases, wall ' + fx(D.wall_seconds, 3) + ' s, ' + (D.sampling ? D.sampling + ', ' :
    (D.period_us ? 'sampling every ' + D.period_us + ' us, ' : 'sampling off, ')) +
    D.samples + ' samples'}));
  if (D.oversubscribed)
    app.appendChild(el('p', {id: 'oversubscribed', 'class': 'warn', text: 'OVERSUBSCRIBED: ' + D.oversubscribed}));

  // warnings: every loss counter (doc/report.md)
  var wl = el('ul', {id: 'warning-list'});
  D.warnings.forEach(function (w) {
    wl.appendChild(el('li', {'class': 'warn', text: (w.counter ? w.counter + ' = ' + w.value + ': ' : '') +
      w.message + (w.remedy ? '; ' + w.remedy : '')}));
  });
  section('warnings', 'Warnings', [D.warnings.length ? wl :
    el('p', {'class': 'ok', text: 'No losses: every counter that means lost or approximate data is 0.'})]);

  // POP efficiency factors (doc/report.md): a bar per factor, the code behind each loss
  var P = D.pop;
  if (P) {
    var pt = el('table', {id: 'pop-table'}, [el('tr', {}, ['factor', 'value', '', 'loss [s]', '= ratio']
      .map(function (h) { return el('th', {text: h}); }))]);
    var S = function (x) { return fx(x, 3) + ' s'; };
    [['parallel_efficiency', 'Parallel efficiency', 0, null, 'load balance x communication efficiency'],
     ['load_balance', 'Load balance', 1, 'load_balance', 'mean comp ' + S(P.mean_computation_seconds) +
       ' / max comp ' + S(P.max_computation_seconds) + ' (rank ' + P.busiest_rank + ')'],
     ['communication_efficiency', 'Communication efficiency', 1, 'communication_efficiency',
       'max comp / runtime ' + S(P.runtime_seconds)],
     ['serialisation_efficiency', 'Serialisation efficiency', 2, 'serialisation_efficiency',
       'max comp / critical path ' + (P.critical_path_seconds === null ? '-' : S(P.critical_path_seconds))],
     ['transfer_efficiency', 'Transfer efficiency', 2, 'transfer_efficiency', 'critical path / runtime']
    ].forEach(function (f) {
      var v = P[f[0]], loss = f[3] ? P.loss_seconds[f[3]] : null;
      pt.appendChild(el('tr', {'class': 'pop-row', 'data-factor': f[0]}, [
        el('td', {'class': 'l', style: 'padding-left:' + (f[2] * 16) + 'px', text: f[1]}),
        el('td', {'class': 'pop-value', text: v === null ? '-' : fx(v, 3)}),
        el('td', {'class': 'l'}, [el('span', {'class': 'bar', style: 'width:' +
          (v === null ? 0 : Math.round(200 * Math.min(1, Math.max(0, v)))) + 'px;background:' +
          (v === null || v >= 0.8 ? '#2ca02c' : v >= 0.6 ? '#ff7f0e' : '#d62728')})]),
        el('td', {text: loss === null || loss === undefined ? '' : fx(loss, 3)}),
        el('td', {'class': 'l', text: f[4]})]));
    });
    var pk = [pt, el('p', {'class': 'note', text: 'comp: a rank\'s ' + P.computation +
      ' task time (outside MPI and rpprof); runtime: the longest rank\'s wall time; critical path: the 100% ' +
      'path\'s cost summed over phases.'})];
    var LC = P.loss_code;
    if (LC) {
      [['load_balance', 'Load balance: lines rank ' + LC.busiest_rank + ' (busiest) computes longer than the mean rank'],
       ['serialisation_efficiency', 'Serialisation: lines that make the critical path longer than rank ' +
         LC.busiest_rank + '\'s computation'],
       ['transfer_efficiency', 'Transfer: MPI time by call site on the ' + LC.critical_path_ranks +
         ' ranks of the critical path']].forEach(function (x) {
        var lt = el('table', {'class': 'pop-loss', 'data-factor': x[0]}, [el('tr', {}, ['seconds', 'samples', 'line']
          .map(function (h) { return el('th', {text: h}); }))]);
        LC[x[0]].forEach(function (r) {
          lt.appendChild(el('tr', {}, [el('td', {text: fx(r.seconds, 3) + (r.within_noise ? ' ~' : '')}),
            el('td', {text: String(r.samples)}), el('td', {'class': 'l', text: r.name})]));
        });
        pk.push(el('h3', {text: x[1]}), lt);
      });
      pk.push(el('p', {'class': 'note', text: 'Sampled time by source line; ~: the difference is within sampling noise (2 sigma).'}));
    }
    // per phase (trace and path modes): the phases that lose most, as pop.per_phase lists them
    var PP = P.per_phase;
    if (PP && PP.length) {
      var bar = function (v) {
        return el('span', {'class': 'bar', style: 'width:' + Math.round(100 * Math.min(1, Math.max(0, v))) +
          'px;background:' + (v >= 0.8 ? '#2ca02c' : v >= 0.6 ? '#ff7f0e' : '#d62728')});
      };
      var ppt = el('table', {id: 'pop-phase-table'}, [el('tr', {}, ['phase', 'LB', '', 'SerE', '',
        'mean comp [s]', 'max comp [s]', 'critical path [s]', 'lost [s]', 'busiest rank']
        .map(function (h) { return el('th', {text: h}); }))]);
      PP.forEach(function (r) {
        var se = r.serialisation_efficiency;
        ppt.appendChild(el('tr', {'class': 'pop-phase-row', 'data-phase': String(r.phase)}, [
          el('td', {text: String(r.phase)}),
          el('td', {'class': 'pop-phase-lb', text: fx(r.load_balance, 3)}),
          el('td', {'class': 'l'}, [bar(r.load_balance)]),
          el('td', {'class': 'pop-phase-sere', text: se === null ? '-' : fx(se, 3)}),
          el('td', {'class': 'l'}, [se === null ? null : bar(se)]),
          el('td', {text: fx(r.mean_computation_seconds, 6)}),
          el('td', {text: fx(r.max_computation_seconds, 6)}),
          el('td', {text: fx(r.critical_path_seconds, 6)}),
          el('td', {text: fx(r.critical_path_seconds - r.mean_computation_seconds, 6)}),
          el('td', {text: String(r.busiest_rank)})]));
      });
      pk.push(el('h3', {text: 'Per phase: the ' + PP.length + ' of ' + D.phases +
        ' phases that lose most (critical path - mean computation), exact'}), ppt,
        el('p', {'class': 'note', text: 'Each rank\'s computation in each phase against the phase\'s 100% path. ' +
          'No per-phase wall time is recorded, so communication and transfer efficiency are whole-run only.'}));
    } else if (D.mode === 'path' || D.mode === 'trace') {
      pk.push(el('p', {'class': 'note', id: 'pop-phase-none',
        text: 'Per phase: not available for this run (the rank files hold no per-phase computation).'}));
    }
    section('pop', 'POP efficiency factors (whole run)', pk);
  } else {
    section('pop', 'POP efficiency factors', [el('p', {'class': 'note',
      text: 'Need the rank files\' per-rank task time (run rp-report on the measurement directory).'})]);
  }

  // distribution
  var dt = el('table', {id: 'distribution-table'}, [el('tr', {}, ['percentile', 'cost [s]', '% wall',
    'phase min [s]', 'median [s]', 'max [s]', 'samples', 'what it is', ''].map(function (h) { return el('th', {text: h}); }))]);
  var cmax = D.paths.length ? D.paths[0].cost_seconds : 0;
  D.paths.forEach(function (p, j) {
    dt.appendChild(el('tr', {'class': 'path-row'}, [
      el('td', {text: fx(p.percentile, 1) + '%'}), el('td', {'class': 'cost', text: fx(p.cost_seconds, 6)}),
      el('td', {text: fx(p.pct_of_wall, 1) + '%'}), el('td', {text: fx(p.phase_min_seconds, 6)}),
      el('td', {text: fx(p.phase_median_seconds, 6)}), el('td', {text: fx(p.phase_max_seconds, 6)}),
      el('td', {text: String(p.samples)}),
      el('td', {'class': 'level', text: p.level || ''}),
      el('td', {'class': 'l'}, [el('span', {'class': 'bar', style: 'background:' + COLORS[j % 10] + ';width:' +
        (cmax > 0 ? Math.round(300 * p.cost_seconds / cmax) : 0) + 'px'})])]));
  });
  // the accuracy benchmark's measured error of the estimated levels (doc/accuracy.md)
  var emed = 0, ewst = 0, rmed = 0, rwst = 0;
  D.paths.forEach(function (p) {
    if (p.measured_median_error_pct != null) {
      emed = Math.max(emed, p.measured_median_error_pct);
      ewst = Math.max(ewst, p.measured_worst_error_pct);
      rmed = Math.max(rmed, p.measured_median_rank_error_pts);
      rwst = Math.max(rwst, p.measured_worst_rank_error_pts);
    }
  });
  var enote = emed > 0 ? 'The middle levels estimate percentiles of all paths of each phase; measured error at k=' + k +
    ' (doc/accuracy.md): median ≤ ' + fx(emed, 1) + '% of a phase\'s longest − shortest, worst phase ' + fx(ewst, 1) +
    '%; as a rank, a path sits within ' + fx(rmed, 1) + ' percentile points of its level (median), ' + fx(rwst, 1) +
    ' in the worst phase. ' : '';
  section('distribution', 'Path-length distribution (task time along each path, summed over phases)',
    [dt, el('p', {'class': 'note', id: 'accuracy-note', text: enote +
      'The 0% path computes less than the critical path: its ranks wait, or have less work. ' +
      'Samples are estimated as sampled time / mean sample weight; a value from n samples is good to about ±2√n.'})]);

  // per-phase timeline of the k path costs
  if (PH && PH.length) {
    var W = 900, H = 220, L = 60, B = 24, ymax = 0;
    PH.forEach(function (r) { r.forEach(function (c) { if (c > ymax) ymax = c; }); });
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', W); svg.setAttribute('height', H); svg.setAttribute('id', 'timeline-svg');
    var n = PH.length;
    for (var j = 0; j < k; j++) {
      var pts = [];
      for (var q = 0; q < n; q++) {
        var c = PH[q][Math.min(j, PH[q].length - 1)] || 0;
        pts.push((L + (n > 1 ? q * (W - L - 10) / (n - 1) : 0)).toFixed(1) + ',' +
          (H - B - (ymax > 0 ? c * (H - B - 10) / ymax : 0)).toFixed(1));
      }
      var pl = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
      pl.setAttribute('points', pts.join(' ')); pl.setAttribute('fill', 'none');
      pl.setAttribute('stroke', COLORS[j % 10]); pl.setAttribute('stroke-width', j === 0 ? 2 : 1);
      svg.appendChild(pl);
    }
    var t1 = document.createElementNS('http://www.w3.org/2000/svg', 'text');
    t1.setAttribute('x', 2); t1.setAttribute('y', 12); t1.textContent = fx(ymax / 1e9, 6) + ' s';
    svg.appendChild(t1);
    var t2 = document.createElementNS('http://www.w3.org/2000/svg', 'text');
    t2.setAttribute('x', L); t2.setAttribute('y', H - 6); t2.textContent = 'phase 0 .. ' + (n - 1);
    svg.appendChild(t2);
    var sp = el('table', {id: 'phase-table'}, [el('tr', {}, ['phase', '100% [s]', '0% [s]', 'spread [s]', 'starts at [s]']
      .map(function (h) { return el('th', {text: h}); }))]);
    (D.phases_by_spread || []).forEach(function (r) {
      sp.appendChild(el('tr', {}, [el('td', {text: String(r.phase)}), el('td', {text: fx(r.cost100_seconds, 6)}),
        el('td', {text: fx(r.cost0_seconds, 6)}), el('td', {text: fx(r.spread_seconds, 6)}),
        el('td', {text: fx(r.start_seconds, 6)})]));
    });
    section('timeline', 'Per-phase path costs (red: 100% path)', [svg, el('h3', {text: 'Phases with the largest spread'}), sp]);
  } else {
    section('timeline', 'Per-phase path costs', [el('p', {'class': 'note',
      text: 'Profile mode keeps per-phase statistics only (min/median/max above); RP_MODE=path or trace keeps every phase.'})]);
  }

  // per-rank bars
  var rk = D.per_rank || [], rmax = 0;
  rk.forEach(function (r) { rmax = Math.max(rmax, r.task_seconds + r.mpi_seconds); });
  var rdiv = el('div', {id: 'rank-bars'});
  rk.slice(0, 1024).forEach(function (r) {
    rdiv.appendChild(el('div', {'class': 'rank-row', title: 'rank ' + r.rank + ': task ' + fx(r.task_seconds, 3) +
      ' s, MPI ' + fx(r.mpi_seconds, 3) + ' s, ' + r.samples + ' samples'}, [
      el('span', {'class': 'lbl', text: String(r.rank)}),
      el('span', {'class': 'bar', style: 'width:' + (rmax > 0 ? (600 * r.task_seconds / rmax).toFixed(1) : 0) + 'px'}),
      el('span', {'class': 'bar mpi', style: 'width:' + (rmax > 0 ? (600 * r.mpi_seconds / rmax).toFixed(1) : 0) + 'px'}),
      el('span', {'class': r.descheduled ? 'warn' : '', text: ' ' + fx(r.task_seconds, 3) + ' / ' +
        fx(r.mpi_seconds, 3) + ' s' + (r.descheduled ? '  descheduled: CPU time ' + fx(r.cpu_seconds, 3) +
        ' s < 80% of its task time' : '')})]));
  });
  var rexact = rk.length > 0 && rk.every(function (r) { return r.times === 'exact'; });
  section('ranks', 'Per rank: ' + (rexact ? 'exact' : 'sampled') +
    ' task time (blue) and MPI time (orange, waiting included)',
    [rk.length ? rdiv : el('p', {'class': 'note', text: 'Needs the rank files (run rp-report on the directory).'}),
     rk.length > 1024 ? el('p', {'class': 'note', text: 'first 1024 of ' + rk.length + ' ranks'}) : null]);

  // hotspots
  function hotTable(id, list, total) {
    var t = el('table', {id: id}, [el('tr', {}, ['seconds', '%', 'samples', 'function', 'file:line']
      .map(function (h) { return el('th', {'class': h === 'function' || h === 'file:line' ? 'l' : '', text: h}); }))]);
    list.slice(0, 20).forEach(function (h) {
      t.appendChild(el('tr', {}, [el('td', {text: fx(h.seconds, 3)}),
        el('td', {text: total > 0 ? fx(100 * h.seconds / total, 1) : '0'}), el('td', {text: String(h.samples)}),
        el('td', {'class': 'l', text: h['function']}),
        el('td', {'class': 'l', text: (h.file ? h.file.replace(/^.*\//, '') : '') + (h.line ? ':' + h.line : '')})]));
    });
    return t;
  }
  section('hotspots', 'Hotspots: whole program vs on the critical path', [
    el('h3', {text: 'whole program (all ranks)'}), hotTable('hot-all', D.hotspots, D.sampled_seconds),
    el('h3', {text: 'on the 100% path'}), hotTable('hot-crit', D.paths[0].top, D.paths[0].sampled_seconds)]);
  if (D.mpi_call_sites && D.mpi_call_sites.length) {
    var ms = el('table', {id: 'mpi-sites'}, [el('tr', {}, ['seconds', 'call', 'called from']
      .map(function (h) { return el('th', {text: h}); }))]);
    D.mpi_call_sites.slice(0, 20).forEach(function (s) {
      ms.appendChild(el('tr', {}, [el('td', {text: fx(s.seconds, 3)}), el('td', {'class': 'l', text: s.call}),
        el('td', {'class': 'l', text: s['function'] + (s.file ? ' (' + s.file.replace(/^.*\//, '') + ':' + s.line + ')' : '')})]));
    });
    section('mpisites', 'MPI time by call site', [ms]);
  }

  // flame graphs: one per path, and the differential 100% - 0%
  var kids = T.map(function () { return []; });
  T.forEach(function (nd, i) { if (nd[0] >= 0) kids[nd[0]].push(i); });
  function flame(id, col, diff) {
    var box = el('div', {'class': 'flame', id: id}), maxd = 0;
    var root = T.length ? T[0][col] : 0;
    function place(i, x0, w, d) {
      if (w < 0.05 || !(root > 0)) return;
      if (d > maxd) maxd = d;
      var nd = T[i], bg;
      if (diff) {
        var a = nd[PATH0] / (T[0][PATH0] || 1), b = nd[PATH0 + k - 1] / (T[0][PATH0] || 1), dd = a - b;
        var s = Math.min(1, Math.abs(dd) * 4);
        bg = dd >= 0 ? 'rgb(255,' + Math.round(235 - 150 * s) + ',' + Math.round(225 - 175 * s) + ')'
                     : 'rgb(' + Math.round(225 - 175 * s) + ',' + Math.round(235 - 120 * s) + ',255)';
      } else {
        bg = 'hsl(' + (20 + (i * 37) % 40) + ',85%,' + (62 + (i * 13) % 15) + '%)';
      }
      box.appendChild(el('div', {'class': 'fr', title: nd[1] + ': ' + fx(nd[col] / 1e9, 6) + ' s',
        style: 'left:' + x0.toFixed(3) + '%;width:' + w.toFixed(3) + '%;top:' + (d * 18) + 'px;background:' + bg,
        text: nd[1]}));
      var x = x0;
      kids[i].slice().sort(function (p, q) { return T[q][col] - T[p][col]; }).forEach(function (c) {
        var cw = w * T[c][col] / (nd[col] || 1);
        place(c, x, cw, d + 1);
        x += cw;
      });
    }
    if (T.length) place(0, 0, 100, 0);
    box.style.height = ((maxd + 1) * 18 + 2) + 'px';
    return box;
  }
  var fl = [];
  for (var j = 0; j < k; j++) {
    fl.push(el('h3', {text: pctName(j) + ' path' + (j === 0 ? ' (critical)' : '')}));
    fl.push(flame('flame-' + j, PATH0 + j, false));
  }
  if (k > 1) {
    fl.push(el('h3', {text: 'differential: widths from the 100% path, red = more on the 100% path than on the 0% path, blue = less'}));
    fl.push(flame('flame-diff', PATH0, true));
  }
  section('flames', 'Flame graphs (inclusive sampled time; hover for names and seconds)', fl);

  // collapsible calling-context tree
  var crit = T.length ? T[0][PATH0] : 0;
  function row(i) {
    var nd = T[i], spans = [];
    for (var j = 0; j < k; j++)
      spans.push(el('span', {'class': 'pc', text: crit > 0 ? fx(100 * nd[PATH0 + j] / crit, 1) : '0.0'}));
    spans.push(el('span', {text: '  ' + nd[1]}));
    return spans;
  }
  function cct(i, depth) {
    var ch = kids[i].slice().sort(function (p, q) { return T[q][PATH0] - T[p][PATH0]; });
    if (!ch.length) return el('div', {'class': 'leaf'}, row(i));
    var d = el('details', depth < 3 ? {open: ''} : {}, [el('summary', {}, row(i))]);
    ch.forEach(function (c) { d.appendChild(cct(c, depth + 1)); });
    return d;
  }
  var head = el('div', {'class': 'leaf'}, [].concat(D.paths.map(function (p) {
    return el('span', {'class': 'pc', text: fx(p.percentile, 0) + '%'}); }), [el('span', {text: '  context (% of the critical path)'})]));
  section('cct', 'Calling-context tree', [head, T.length ? cct(0, 0) : el('p', {text: 'no samples'})]);
  document.body.setAttribute('data-ready', '1');
})();
