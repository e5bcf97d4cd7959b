"""JavaScript the browser check runs in JupyterLab's page (Lab started with
``expose_app_in_browser``): open, run and close notebooks, and read what each output shows."""

from __future__ import annotations

from browser_live import COUNT_CHARTS_JS

#: Classes of a widget's saved copy (``workbench.widgets.SavedCopy``; "workbench-explorer" is
#: what explorers saved before the mixin existed).
FALLBACK_CLASSES = ("workbench-saved", "workbench-explorer")
FALLBACK_SELECTOR = ", ".join(f".{name}" for name in FALLBACK_CLASSES)


BOOT_JS = """async () => {
  const app = window.jupyterapp;
  await app.restored;
  for (const w of Array.from(app.shell.widgets('main'))) w.dispose();  // the Launcher
  app.shell.collapseLeft();
  app.shell.collapseRight();
}"""

OPEN_JS = """async (path) => {
  const app = window.jupyterapp;
  window.__bcRun = null;
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  window.__bcPanel = panel;
  window.__bcKernelLost = null;
  panel.sessionContext.statusChanged.connect((_, status) => {
    if (['autorestarting', 'restarting', 'dead'].includes(status)) window.__bcKernelLost = status;
  });
  app.shell.activateById(panel.id);
  await panel.context.ready;
}"""

CLOSE_JS = """() => {
  const panel = window.__bcPanel;
  window.__bcPanel = null;
  if (panel) panel.sessionContext.shutdown().catch(() => {}).finally(() => panel.dispose());
}"""

STATE_JS = """() => {
  const p = window.__bcPanel;
  const kernel = p.sessionContext.session ? p.sessionContext.session.kernel : null;
  const running = Array.from(p.content.node.querySelectorAll('.jp-InputPrompt'))
    .filter((el) => el.textContent.includes('[*]')).length;
  return {
    ready: p.context.isReady && p.sessionContext.isReady,
    status: kernel ? kernel.status : 'none',
    dialog: document.querySelector('.jp-Dialog .jp-Dialog-button.jp-mod-accept') !== null,
    run: window.__bcRun || null,
    kernelLost: window.__bcKernelLost || null,
    running,
  };
}"""

RUN_ALL_JS = """() => {
  const app = window.jupyterapp;
  app.shell.activateById(window.__bcPanel.id);
  window.__bcRun = {done: false};
  app.commands.execute('notebook:run-all-cells').then(
    (ok) => { window.__bcRun = {done: true, ok: ok !== false}; },
    (err) => { window.__bcRun = {done: true, ok: false, error: String(err)}; });
}"""

#: Helpers shared by the page inspections below: image state and ink at the image's border.
IMAGE_JS = """
const RING = 2;  // device pixels at the image's edge that must be background
const TOLERANCE = 16;  // per colour channel, for anti-aliasing of the background itself
const visible = (el) => {
  const r = el.getBoundingClientRect();
  return r.width >= 10 && r.height >= 10 && getComputedStyle(el).visibility !== 'hidden';
};
const inkAtBorder = (img) => {
  const w = img.naturalWidth, h = img.naturalHeight;
  if (!w || !h) return [];
  const canvas = document.createElement('canvas');
  canvas.width = w; canvas.height = h;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  ctx.drawImage(img, 0, 0);
  let d;
  try { d = ctx.getImageData(0, 0, w, h).data; } catch (e) { return ['unreadable']; }
  const at = (x, y) => 4 * (y * w + x);
  const bg = [d[0], d[1], d[2], d[3]];
  const ink = (x, y) => {
    const k = at(x, y);
    return Math.abs(d[k] - bg[0]) > TOLERANCE || Math.abs(d[k + 1] - bg[1]) > TOLERANCE
      || Math.abs(d[k + 2] - bg[2]) > TOLERANCE || Math.abs(d[k + 3] - bg[3]) > TOLERANCE;
  };
  const sides = new Set();
  for (let r = 0; r < RING && r < h && r < w; r++) {
    for (let x = 0; x < w; x++) {
      if (ink(x, r)) sides.add('top');
      if (ink(x, h - 1 - r)) sides.add('bottom');
    }
    for (let y = 0; y < h; y++) {
      if (ink(r, y)) sides.add('left');
      if (ink(w - 1 - r, y)) sides.add('right');
    }
  }
  return Array.from(sides);
};
const imageInfo = (img) => ({
  loaded: img.complete && img.naturalWidth > 0 && visible(img),
  width: img.naturalWidth, height: img.naturalHeight,
  ink: img.complete && img.naturalWidth > 0 ? inkAtBorder(img) : [],
  alt: img.getAttribute('alt') || '',
});
const wrappedText = (root) => {
  const found = [];
  for (const pre of root.querySelectorAll('.jp-OutputArea-output pre')) {
    if (pre.closest('.jupyter-widgets')) continue;
    const lines = pre.textContent.replace(/\\n$/, '').split('\\n');
    const height = parseFloat(getComputedStyle(pre).lineHeight);
    if (!(height > 0) || !visible(pre)) continue;
    const rows = Math.round(pre.getBoundingClientRect().height / height);
    if (rows > lines.length) {
      const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
      found.push(longest.slice(0, 60));
    }
  }
  return found;
};
const wideTables = (root) => Array.from(root.querySelectorAll('.jp-OutputArea-output table'))
  .map((t) => t.closest('div') || t)
  .filter((box) => box.scrollWidth > box.clientWidth + 1 && visible(box))
  .map((box) => box.textContent.trim().slice(0, 40));
"""

#: Every code cell's outputs: the saved mime types and metadata beside what the page shows.
OUTPUTS_JS = (
    """() => {
  IMAGE_JS
  COUNT_CHARTS_JS
  const p = window.__bcPanel;
  const outputs = [];
  p.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    const models = cell.model.outputs;
    const children = cell.outputArea ? cell.outputArea.widgets : [];
    for (let j = 0; j < models.length; j++) {
      const json = models.get(j).toJSON();
      const node = children[j] ? children[j].node.querySelector('.jp-OutputArea-output') : null;
      const info = {
        cell: i + 1, type: json.output_type, trusted: cell.model.trusted,
        mimes: Object.keys(json.data || {}), metadata: json.metadata || {},
        ename: json.ename || null, evalue: json.evalue || null,
        shown: node ? (node.dataset.mimeType || null) : null,
        text: node ? node.textContent.trim().slice(0, 80) : '',
        images: [], fallback: null, widget: null,
      };
      if (node) {
        const fallback = node.querySelector('FALLBACK_SELECTOR');
        // A live widget view: Lab's widget renderer puts the widget's DOM in the output node.
        info.view = node.querySelector('.jupyter-widgets') !== null && !fallback;
        info.fallback = fallback && visible(fallback)
          ? {images: Array.from(fallback.querySelectorAll('img')).map(imageInfo)} : null;
        if (!fallback) info.images = Array.from(node.querySelectorAll('img')).map(imageInfo);
        const live = node.querySelector('.workbench-explorer-live');
        // A chart is expected where the output carries one: a PNG, an explorer, a saved copy
        // with an image (a saved play-along table may hold none).
        const savedChart = fallback && fallback.querySelector('img') !== null;
        if (info.mimes.includes('image/png') || live || savedChart) info.charts = chartsShown(node);
        if (live) {
          const blank = Array.from(live.querySelectorAll('select')).filter((s) => s.size <= 1
            && (s.selectedIndex < 0 || !s.options[s.selectedIndex].text.trim()));
          const status = live.querySelector('.workbench-status');
          info.widget = {
            images: Array.from(live.querySelectorAll('img.workbench-chart'))
              .filter((img) => getComputedStyle(img).display !== 'none').map(imageInfo),
            live: live.querySelectorAll('.vega-embed svg.marks').length,
            busy: live.classList.contains('workbench-busy'),
            blankSelects: blank.map((s) => {
              const box = s.closest('.widget-inline-hbox');
              const label = box ? box.querySelector('.widget-label') : null;
              return label ? label.textContent.trim().slice(0, 30) : '?';
            }),
            csv: live.querySelector('a[download][href^="data:text/csv"]') !== null,
            png: live.querySelector('a[download][href^="data:image/png"]') !== null,
            status: status ? status.textContent.trim() : '',
            tracebacks: Array.from(live.querySelectorAll('.jp-OutputArea-output'))
              .filter((o) => o.textContent.includes('Traceback')).length,
          };
        }
      }
      outputs.push(info);
    }
    if (cell.model.executionCount === null && cell.model.sharedModel.getSource().trim()) {
      outputs.push({cell: i + 1, type: 'not-run', mimes: [], metadata: {}});
    }
  });
  const root = p.content.node;
  return {outputs, wrapped: wrappedText(root), wide: wideTables(root)};
}""".replace("IMAGE_JS", IMAGE_JS)
    .replace("COUNT_CHARTS_JS", COUNT_CHARTS_JS)
    .replace("FALLBACK_SELECTOR", FALLBACK_SELECTOR)
)

#: The same inspection for a static HTML export (nbconvert's lab template).
STATIC_JS = """() => {
  IMAGE_JS
  const outputs = Array.from(document.querySelectorAll('.jp-OutputArea-output'));
  const fallbacks = Array.from(document.querySelectorAll('FALLBACK_SELECTOR'))
    .filter((f) => !f.parentElement.closest('FALLBACK_SELECTOR'));  // the outermost only
  const images = outputs.filter((o) => !o.querySelector('FALLBACK_SELECTOR'))
    .flatMap((o) => Array.from(o.querySelectorAll('img')));
  const textForms = outputs.map((o) => o.textContent.trim())
    .filter((t) => /^(alt\\.\\w*Chart\\(|\\w+\\(children=)/.test(t)).map((t) => t.slice(0, 60));
  return {
    images: images.map(imageInfo),
    fallbacks: fallbacks.map((f) => ({visible: visible(f),
      images: Array.from(f.querySelectorAll('img')).map(imageInfo)})),
    textForms,
  };
}""".replace("IMAGE_JS", IMAGE_JS).replace("FALLBACK_SELECTOR", FALLBACK_SELECTOR)

#: The first enabled slider of explorer ``e``, scrolled into view: its handle and its track.
SLIDER_JS = """(e) => {
  const live = window.__bcPanel.content.node.querySelectorAll('.workbench-explorer-live')[e];
  if (!live) return null;
  const sliders = Array.from(live.querySelectorAll('.widget-slider'))
    .filter((s) => !s.classList.contains('mod-disabled') && !s.querySelector('[disabled]'));
  for (const slider of sliders) {
    const handle = slider.querySelector('.noUi-handle');
    const track = slider.querySelector('.noUi-target');
    if (!handle || !track) continue;
    live.querySelectorAll('[data-bc-drag]').forEach((el) => el.removeAttribute('data-bc-drag'));
    slider.setAttribute('data-bc-drag', '1');
    handle.scrollIntoView({block: 'center'});
    const h = handle.getBoundingClientRect(), t = track.getBoundingClientRect();
    return {x: h.left + h.width / 2, y: h.top + h.height / 2, left: t.left, right: t.right,
      label: (slider.querySelector('.widget-label') || {}).textContent || ''};
  }
  return null;
}"""

#: When explorer ``e`` has no slider to drag: its first enabled dropdown with another option,
#: marked so that the check can choose that option.
DROPDOWN_JS = """(e) => {
  const live = window.__bcPanel.content.node.querySelectorAll('.workbench-explorer-live')[e];
  if (!live) return null;
  live.querySelectorAll('[data-bc-select]').forEach((el) => el.removeAttribute('data-bc-select'));
  for (const select of live.querySelectorAll('select')) {
    if (select.disabled || select.multiple || select.options.length < 2) continue;
    select.setAttribute('data-bc-select', '1');
    select.scrollIntoView({block: 'center'});
    const box = select.closest('.widget-inline-hbox');
    const label = box ? box.querySelector('.widget-label') : null;
    return {index: select.selectedIndex === 0 ? 1 : 0, label: label ? label.textContent : ''};
  }
  return null;
}"""

EXPLORERS_JS = """() => window.__bcPanel.content.node
  .querySelectorAll('.workbench-explorer-live').length"""

EXPLORER_STATUS_JS = """(e) => {
  const live = window.__bcPanel.content.node.querySelectorAll('.workbench-explorer-live')[e];
  const status = live ? live.querySelector('.workbench-status') : null;
  const update = status ? status.querySelector('[data-update]') : null;
  const slider = live ? live.querySelector('[data-bc-drag] .widget-readout') : null;
  return {status: status ? status.textContent.trim() : '',
    busy: live ? live.classList.contains('workbench-busy') : false,
    update: update ? update.dataset.update : '', readout: slider ? slider.textContent : ''};
}"""

PREPARE_SCREENSHOT_JS = """() => {
  const n = window.__bcPanel.content.node;
  const scroller = n.querySelector('.jp-WindowedPanel-outer') || n;
  return scroller.scrollHeight + (window.innerHeight - scroller.clientHeight);
}"""

#: JupyterLab user settings for the check: no news toast over the screenshots, every cell kept
#: in the DOM (Lab's windowing would detach cells scrolled out of view), no blank space below.
