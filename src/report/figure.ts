/**
 * A figure of the page: one or more plots, a caption that says how to read them, and
 * the numbers behind them as a table. Figures are made from report data by the
 * figures of each kind (run-figures.ts, ...), drawn by svg.ts and laid out by page.ts.
 */
import type { PlotOptions } from '@observablehq/plot';

interface Panel {
  /** Above the plot when a figure has several (one per metric, per pair...). */
  readonly title?: string;
  readonly plot: PlotOptions;
}

export interface Table {
  readonly columns: readonly string[];
  /** Cells as printed; a cell that is a number is aligned as one. */
  readonly rows: readonly (readonly string[])[];
}

export interface Figure {
  /** What it shows, for the browser test and styles: `means`, `pairs`, `running`... */
  readonly kind: string;
  readonly title: string;
  readonly caption: string;
  readonly panels: readonly Panel[];
  readonly table: Table;
}
