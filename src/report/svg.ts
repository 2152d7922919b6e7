/**
 * Plots drawn to SVG text by Observable Plot, here in Node, so that the page needs no
 * script: linkedom stands in for the browser's document. The only module that renders.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';

/** What this module uses of linkedom's document and Plot's result (the DOM's types are not in this project's lib). */
interface Rendered {
  readonly outerHTML: string;
}

/** The SVG of one plot (Plot's own `<style>` inside: the page links nothing). */
export function svgOf(options: Plot.PlotOptions): string {
  const { document } = parseHTML('<!doctype html><html><body></body></html>') as unknown as { document: object };
  const svg = Plot.plot({ ...options, document }) as unknown as Rendered;
  return svg.outerHTML;
}
