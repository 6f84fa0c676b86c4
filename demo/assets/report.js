/* global document, echarts, DATA */
/*
 * Renders the demo report from the page's global DATA (contract 5) so a person can read it: KPI cards,
 * per-platform figures and trend, the industry exposure ranking, share charts, sources, word cloud.
 * The suite never reads this rendering; it reads DATA.
 */
(function () {
  'use strict';

  var NO_TIME = '无时间';
  var DROPPED = ['其他', '未知'];

  function rate(v) {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number') return v;
    var text = String(v).trim();
    if (text === '' || text === '-') return null;
    var n = parseFloat(text);
    return isNaN(n) ? null : n;
  }

  /** The report's formatter: two decimals, except 0 and 100 (spec 7.1.1). */
  function pct(v) {
    var n = rate(v);
    if (n === null) return '';
    return (n === 0 || n === 100 ? String(n) : n.toFixed(2)) + '%';
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function table(head, rows, numeric) {
    var th = head
      .map(function (h, i) {
        return '<th' + (numeric && numeric[i] ? ' class="num"' : '') + '>' + esc(h) + '</th>';
      })
      .join('');
    var body = rows
      .map(function (r) {
        var cls = r.cls ? ' class="' + r.cls + '"' : '';
        return (
          '<tr' +
          cls +
          '>' +
          r.cells
            .map(function (c, i) {
              return '<td' + (numeric && numeric[i] ? ' class="num"' : '') + '>' + esc(c) + '</td>';
            })
            .join('') +
          '</tr>'
        );
      })
      .join('');
    return '<table><thead><tr>' + th + '</tr></thead><tbody>' + body + '</tbody></table>';
  }

  function chart(id, option) {
    var node = byId(id);
    if (typeof echarts === 'undefined') {
      node.innerHTML = '<p class="empty">图表库未加载</p>';
      return;
    }
    var instance = echarts.getInstanceByDom(node) || echarts.init(node);
    instance.setOption(Object.assign({ animation: false }, option), true);
  }

  function sum(entries) {
    return entries.reduce(function (s, e) {
      var v = rate(e.value);
      return v !== null && v > 0 ? s + v : s;
    }, 0);
  }

  function sortDesc(entries) {
    return entries
      .map(function (e, i) {
        return { e: e, i: i };
      })
      .sort(function (a, b) {
        return b.e.share - a.e.share || a.i - b.i;
      })
      .map(function (x) {
        return x.e;
      });
  }

  /** Spec 7.3.3 / 7.3.4: percentages are used directly, counts become value / sum × 100. */
  function legendShares(entries) {
    var total = sum(entries);
    var percent =
      total <= 101.5 &&
      entries.every(function (e) {
        var v = rate(e.value);
        return v === null || v <= 100;
      });
    return sortDesc(
      entries.map(function (e) {
        var v = rate(e.value) || 0;
        return { name: e.name, share: percent ? v : (v / total) * 100 };
      }),
    );
  }

  function mediaShares(entries, wholeGroup) {
    var kept = entries.filter(function (e) {
      return DROPPED.indexOf(e.name) < 0;
    });
    var total = wholeGroup ? sum(entries) : sum(kept);
    return sortDesc(
      kept.map(function (e) {
        return { name: e.name, share: ((rate(e.value) || 0) / total) * 100 };
      }),
    ).slice(0, 10);
  }

  function lastPoint(p) {
    if (!p.trend || p.trend.length === 0) return p.self;
    return p.trend.reduce(function (a, b) {
      return b.date >= a.date ? b : a;
    });
  }

  function renderKpis(data) {
    var s = data.brand.summary;
    var b = !!data.overall;
    var metric = data.meta.position_metric || 'top3';
    var position = {
      first: ['首位率', s.avg_first_position_rate],
      top3: ['前三率', s.avg_top3_rate],
      top5: ['前五率', s.avg_top5_rate],
    }[metric];
    var cards = b
      ? [
          ['品牌露出率', data.overall.brand_level_exposure_rate],
          ['露出率', s.avg_exposure_rate],
          position,
          ['中正面提及率', s.avg_positive_mention_rate],
          ['商品链接露出率', s.product_link],
        ]
      : [
          ['露出率', s.avg_exposure_rate],
          ['前三率', s.avg_top3_rate],
          ['中正面提及率', s.avg_positive_mention_rate],
          ['首位率', s.avg_first_position_rate],
        ];
    byId('kpis').innerHTML = cards
      .map(function (c) {
        return (
          '<div class="kpi"><div class="label">' +
          esc(c[0]) +
          '</div><div class="value">' +
          (pct(c[1]) || '—') +
          '</div></div>'
        );
      })
      .join('');
    byId('kpi-note').textContent =
      '品牌：' + data.brand.name + (data.meta.batch_date ? ' · 批次日期 ' + data.meta.batch_date : '');
  }

  function renderPlatforms(data) {
    var b = !!data.overall;
    var head = ['平台', '露出率', '前三率', '前五率', '首位率', '中正面提及率'].concat(
      b ? ['品牌露出率'] : [],
    );
    var rows = data.meta.platforms.map(function (m) {
      var p = data.brand.platforms[m.key];
      if (!p) return { cells: [m.name, '', '', '', '', ''] };
      var k = lastPoint(p);
      var cells = [
        m.name,
        pct(k.exposure_rate),
        pct(k.top3_rate),
        pct(k.top5_rate),
        pct(k.first_position_rate),
        pct(k.positive_mention_rate),
      ];
      return { cells: b ? cells.concat([pct(k.brand_exposure_rate)]) : cells };
    });
    byId('platform-kpis').innerHTML = table(
      head,
      rows,
      head.map(function (_, i) {
        return i > 0;
      }),
    );
    var dates = {};
    data.meta.platforms.forEach(function (m) {
      var p = data.brand.platforms[m.key];
      (p ? p.trend : []).forEach(function (t) {
        dates[t.date] = true;
      });
    });
    var axis = Object.keys(dates).sort();
    if (axis.length < 2) {
      byId('trend').outerHTML = '<p class="empty">诊断报告无多期趋势，取各平台最新一期数据。</p>';
      return;
    }
    chart('trend', {
      title: { text: '露出率趋势', left: 0, top: 0, textStyle: { fontSize: 14 } },
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', top: 0, right: 0, left: 120 },
      grid: { top: 48, left: 48, right: 24, bottom: 32 },
      yAxis: { type: 'value', scale: true, axisLabel: { formatter: '{value}%' } },
      xAxis: { type: 'category', data: axis },
      series: data.meta.platforms.map(function (m) {
        var p = data.brand.platforms[m.key];
        var byDate = {};
        (p ? p.trend : []).forEach(function (t) {
          byDate[t.date] = rate(t.exposure_rate);
        });
        return {
          name: m.short_name || m.name,
          type: 'line',
          data: axis.map(function (d) {
            return byDate[d];
          }),
        };
      }),
    });
  }

  function renderRanking(data) {
    var b = !!data.overall;
    var entries = [{ name: data.brand.name, rate: rate(data.brand.summary.avg_exposure_rate) }];
    data.brand.core_competitors.forEach(function (c) {
      var r = rate(c.avg_exposure_rate);
      if (b && r === 0) return; // sibling placeholder (spec 9.5.3)
      var same = entries.filter(function (e) {
        return e.name === c.name;
      })[0];
      if (same) {
        if (b && r !== null && (same.rate === null || r > same.rate)) same.rate = r;
        if (b) return;
      }
      entries.push({ name: c.name, rate: r });
    });
    var top = entries
      .map(function (e, i) {
        return { e: e, i: i };
      })
      .sort(function (x, y) {
        return (y.e.rate || -1) - (x.e.rate || -1) || x.i - y.i;
      })
      .slice(0, 10)
      .map(function (x) {
        return x.e;
      });
    var platforms = data.meta.platforms.slice(0, 6);
    var head = ['排名', '品牌', '平均露出率'].concat(
      platforms.map(function (m) {
        return m.short_name || m.name;
      }),
    );
    var rows = top.map(function (e, i) {
      var cells = [String(i + 1), e.name, pct(e.rate)];
      platforms.forEach(function (m) {
        var p = data.brand.platforms[m.key];
        var hit = (p ? p.industry_ranking : []).filter(function (r) {
          return r.name === e.name;
        })[0];
        cells.push(hit ? pct(hit.exposure_rate) : '');
      });
      return { cells: cells, cls: e.name === data.brand.name ? 'own' : '' };
    });
    byId('ranking').innerHTML = table(
      head,
      rows,
      head.map(function (_, i) {
        return i === 0 || i > 1;
      }),
    );
  }

  function renderCitation(data, key) {
    var b = !!data.overall;
    var group =
      key === 'all'
        ? data.brand.tmc_aggregate
        : data.brand.platforms[key] && data.brand.platforms[key].citation;
    var sources = key === 'all' ? data.brand.source_top30 : group && group.source_top30;
    function pie(id, entries) {
      if (!entries) {
        chart(id, {
          title: {
            text: '该平台无此数据',
            left: 'center',
            top: 'middle',
            textStyle: { fontSize: 13, color: '#6b7280' },
          },
          series: [],
        });
        return;
      }
      var shares = legendShares(entries).slice(0, 8);
      chart(id, {
        tooltip: { trigger: 'item', formatter: '{b}：{c}%' },
        legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle' },
        series: [
          {
            type: 'pie',
            radius: ['35%', '65%'],
            center: ['38%', '50%'],
            label: { formatter: '{b}\n{c}%', fontSize: 11 },
            data: shares.map(function (s) {
              return { name: s.name, value: Math.round(s.share * 100) / 100 };
            }),
          },
        ],
      });
    }
    pie('content-type', group && group.content_type);
    pie(
      'publish-time',
      group &&
        group.publish_time &&
        group.publish_time.filter(function (e) {
          return e.name !== NO_TIME;
        }),
    );
    var media = group ? mediaShares(group.media_category, b) : [];
    byId('media-category').innerHTML = media.length
      ? media
          .map(function (m) {
            return (
              '<div class="tile"><b>' + m.share.toFixed(2) + '%</b><span>' + esc(m.name) + '</span></div>'
            );
          })
          .join('')
      : '<p class="empty">暂无数据</p>';
    var names = group && group.media_name ? mediaShares(group.media_name, false) : [];
    chart('media-name', {
      grid: { left: 96, right: 48, top: 8, bottom: 24 },
      xAxis: { type: 'value', axisLabel: { formatter: '{value}%' } },
      yAxis: {
        type: 'category',
        inverse: true,
        data: names.map(function (n) {
          return n.name;
        }),
      },
      series: [
        {
          type: 'bar',
          data: names.map(function (n) {
            return Math.round(n.share * 100) / 100;
          }),
          label: { show: true, position: 'right', formatter: '{c}%' },
          itemStyle: { color: '#0ea5e9' },
        },
      ],
    });
    byId('sources').innerHTML = sources
      ? table(
          ['序号', '标题', '渠道', '引用次数'],
          sources.slice(0, 30).map(function (s, i) {
            return { cells: [String(i + 1), s.title, s.channel, String(s.cite_count)] };
          }),
          [true, false, false, true],
        )
      : '<p class="empty">该平台无相关信源数据</p>';
  }

  function renderTabs(data) {
    var options = [{ key: 'all', name: '全部平台' }].concat(data.meta.platforms.slice(0, 6));
    var tabs = byId('tabs');
    tabs.innerHTML = options
      .map(function (o, i) {
        return (
          '<button type="button" data-key="' +
          esc(o.key) +
          '"' +
          (i === 0 ? ' class="on"' : '') +
          '>' +
          esc(o.name) +
          '</button>'
        );
      })
      .join('');
    tabs.addEventListener('click', function (event) {
      var key = event.target && event.target.getAttribute && event.target.getAttribute('data-key');
      if (!key) return;
      Array.prototype.forEach.call(tabs.children, function (btn) {
        btn.className = btn.getAttribute('data-key') === key ? 'on' : '';
      });
      renderCitation(data, key);
    });
    renderCitation(data, 'all');
  }

  function cloud(id, words, empty) {
    if (!words || words.length === 0) {
      byId(id).innerHTML = '<span class="empty">' + esc(empty) + '</span>';
      return;
    }
    var max = Math.max.apply(
      null,
      words.map(function (w, i) {
        return w.weight === undefined ? words.length - i : w.weight;
      }),
    );
    byId(id).innerHTML = words
      .map(function (w, i) {
        var weight = w.weight === undefined ? words.length - i : w.weight;
        var size = 13 + Math.round((weight / max) * 17);
        return '<span style="font-size:' + size + 'px">' + esc(w.word) + '</span>';
      })
      .join('');
  }

  /**
   * One part of the report, drawn on its own: DATA that this script cannot draw (a field of a shape
   * it does not know, as the model projects' DATA has where no check reads) leaves a note in that
   * part's place, and the other parts are still drawn.
   */
  function part(id, draw) {
    try {
      draw();
    } catch (e) {
      var node = byId(id);
      if (node) node.innerHTML = '<p class="empty">无法绘制：' + esc(e && e.message ? e.message : e) + '</p>';
    }
  }

  function render(data) {
    part('kpis', function () {
      renderKpis(data);
    });
    part('platform-kpis', function () {
      renderPlatforms(data);
    });
    part('ranking', function () {
      renderRanking(data);
    });
    part('tabs', function () {
      renderTabs(data);
    });
    var wc = data.brand.wordcloud || {};
    part('words', function () {
      cloud('words', wc.words, '暂无关键词');
    });
    part('positive', function () {
      cloud('positive', wc.positive, '暂无正面关键词');
    });
    part('negative', function () {
      cloud('negative', wc.negative, '未监测到负面词');
    });
  }

  var data = typeof DATA === 'undefined' ? undefined : DATA;
  var root = byId('report');
  if (!data || !data.meta || !data.brand) {
    root.innerHTML =
      '<section class="card"><h2>报告数据缺失</h2><p class="empty">页面未能读取报告数据（DATA）。</p></section>';
    return;
  }
  try {
    render(data);
  } catch (e) {
    var note = document.createElement('section');
    note.className = 'card';
    note.innerHTML = '<h2>报告渲染失败</h2><p class="empty">' + esc(e && e.message ? e.message : e) + '</p>';
    root.insertBefore(note, root.firstChild);
  }
})();
