/**
 * The report page: one HTML file that needs nothing else. Plots are SVG drawn before
 * the page is written, styles are inline, there is no script, and the page's own
 * Content-Security-Policy forbids every request (a browser would refuse a font, image
 * or script even if one slipped in). Each part opens with its identity (what was run
 * and the command that runs it again); each figure has the numbers behind it in a
 * table beside it, which prints in full.
 */
import { writeWhole } from '../harness/run/outputs.js';
import { VERSION } from '../harness/run/version.js';
import type { Identity, ReportPart } from './data.js';
import { declaredFigures } from './declared-figures.js';
import type { Figure, Table } from './figure.js';
import { stamp } from './format.js';
import { runFigures } from './run-figures.js';
import { svgOf } from './svg.js';
import { tuneFigures } from './tune-figures.js';

export interface PageOptions {
  /** The page's heading; by default the first part's title. */
  readonly title?: string;
  /** When the page is made (shown under the heading). */
  readonly made: Date;
}

export function reportHtml(parts: readonly ReportPart[], o: PageOptions): string {
  const title = o.title ?? (parts.length === 1 ? parts[0].identity.title : `${parts.length} reports`);
  const nav =
    parts.length > 1
      ? `<nav><ol>${parts.map((p, i) => `<li><a href="#part-${i + 1}">${esc(p.identity.title)}</a></li>`).join('')}</ol></nav>`
      : '';
  // One part: the page's heading is the part's own.
  const body = parts.map((p, i) => partHtml(p, `part-${i + 1}`, parts.length > 1 || o.title !== undefined)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="tafel ${esc(VERSION)}">
<title>${esc(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>${esc(title)}</h1><p class="made">Made by tafel ${esc(VERSION)} on ${esc(stamp(o.made))}.</p>${nav}</header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Write the page whole (through a temporary file), as every output of tafel. */
export function writeReport(path: string, parts: readonly ReportPart[], o: PageOptions): number {
  const html = reportHtml(parts, o);
  writeWhole(path, html, 'report');
  return Buffer.byteLength(html);
}

function figuresOf(part: ReportPart): Figure[] {
  switch (part.kind) {
    case 'run':
      return runFigures(part);
    case 'tune':
      return tuneFigures(part);
    case 'declared':
      return declaredFigures(part);
  }
}

function partHtml(part: ReportPart, id: string, heading: boolean): string {
  const notes = 'notes' in part && part.notes.length ? part.notes : [];
  const figures = figuresOf(part)
    .map((f, i) => figureHtml(f, `${id}-${i + 1}`))
    .join('\n');
  return `<section class="part" id="${id}" data-kind="${part.kind}">
${heading ? `<h2>${esc(part.identity.title)}</h2>` : ''}
${identityHtml(part.identity)}
${notes.length ? `<ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
${figures}
</section>`;
}

function identityHtml(id: Identity): string {
  const facts = id.facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd data-fact="${esc(k)}">${esc(v)}</dd>`).join('');
  const command = id.command
    ? `<p class="label">The command that plays it again:</p><pre class="command"><code>${esc(id.command)}</code></pre>`
    : '<p class="label">The command is not in these inputs (see the notes).</p>';
  const sources = id.sources.length
    ? `<dt>read from</dt><dd data-fact="sources">${id.sources.map((s) => `<code>${esc(s)}</code>`).join(', ')}</dd>`
    : '';
  return `<div class="identity"><dl>${facts}${sources}</dl>${command}</div>`;
}

function figureHtml(f: Figure, id: string): string {
  const panels = f.panels
    .map(
      (p) =>
        `<div class="panel">${p.title ? `<p class="panel-title">${esc(p.title)}</p>` : ''}${svgOf({
          ...p.plot,
          ariaLabel: p.title ? `${f.title}: ${p.title}` : f.title,
        })}</div>`,
    )
    .join('');
  return `<figure id="${id}" data-figure="${esc(f.kind)}">
<figcaption><h3>${esc(f.title)}</h3><p>${esc(f.caption)}</p></figcaption>
<div class="body">${panels ? `<div class="plots">${panels}</div>` : ''}${tableHtml(f.table, f.title)}</div>
</figure>`;
}

const NUMBER = /^(?:[-+]?\d[\d,]*(?:\.\d+)?%?|-?inf)$/;

function tableHtml(t: Table, title: string): string {
  const numeric = t.columns.map((_, c) => t.rows.length > 0 && t.rows.every((r) => r[c] === '' || NUMBER.test(r[c])));
  const cls = (c: number) => (numeric[c] ? ' class="num"' : '');
  const head = t.columns.map((col, c) => `<th scope="col"${cls(c)}>${esc(col)}</th>`).join('');
  const rows = t.rows
    .map((r) => `<tr>${r.map((cell, c) => `<td${cls(c)}>${esc(cell)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="numbers"><table><caption>The numbers behind “${esc(title)}”</caption><thead><tr>${head}</tr></thead><tbody>
${rows}
</tbody></table></div>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

const CSS = `
:root { color-scheme: light; --fg: #1d1d1f; --muted: #5a5f66; --line: #dcdfe3; --soft: #f5f6f8; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #fff; margin: 0 auto; max-width: 1360px; padding: 24px 28px 64px; }
h1 { font-size: 1.55rem; margin: 0 0 2px; }
h2 { font-size: 1.3rem; margin: 40px 0 12px; padding-bottom: 4px; border-bottom: 2px solid var(--fg); }
h3 { font-size: 1.05rem; margin: 0; }
.made { color: var(--muted); margin: 0 0 8px; }
nav ol { margin: 8px 0; padding-left: 1.4em; }
a { color: #1f5fbf; }
.identity dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 3px 18px; margin: 0 0 10px; }
.identity dt { color: var(--muted); }
.identity dd { margin: 0; overflow-wrap: anywhere; }
.identity .label { margin: 6px 0 2px; color: var(--muted); }
pre.command { margin: 0; padding: 8px 12px; background: var(--soft); border-left: 3px solid var(--fg); white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; }
.notes { color: var(--muted); margin: 10px 0; padding-left: 1.2em; }
figure { margin: 30px 0 0; break-inside: avoid; }
figcaption p { margin: 3px 0 10px; color: var(--muted); max-width: 90ch; }
/* The numbers sit beside the plots when they fit there whole, else under them, full width:
   a table never hides a column behind a scroll bar on a wide screen. */
.body { display: flex; flex-wrap: wrap; gap: 20px 28px; align-items: flex-start; }
.plots { flex: 0 1 680px; min-width: 0; }
.numbers { flex: 1 1 auto; max-width: 100%; }
.panel { margin-bottom: 10px; }
.panel-title { margin: 0 0 2px; font-size: 13px; font-weight: 600; }
.panel svg { display: block; max-width: 100%; height: auto; font-size: 11px; overflow: visible; }
.numbers { max-height: 440px; overflow: auto; border: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; font-variant-numeric: tabular-nums; }
caption { text-align: left; padding: 4px 8px; color: var(--muted); font-size: 12px; }
th, td { padding: 2px 6px; text-align: left; white-space: nowrap; border-bottom: 1px solid var(--line); }
th { position: sticky; top: 0; background: #fff; font-weight: 600; }
.num { text-align: right; }
@media (max-width: 1100px) { .plots { flex-basis: 100%; } }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  nav { display: none; }
  .part + .part { break-before: page; }
  .plots, .numbers { flex-basis: 100%; }
  .numbers { max-height: none; overflow: visible; border: none; }
  th { position: static; }
}
`;
