import { formatChange, formatDuration, formatNumber, formatValue, type ValueUnit } from './format';
import { nodeText } from './path-nodes';
import { isTimeSeries } from './trends-view';
import type { FunnelStepView, ResultView, TrendSeriesView, TrendsView } from './view-types';
import { actorsTitle, PERSONS, type ActorWords } from './actor-words';

/** A measured value: formatted by its unit; `note` after it; `shade` (0..1) tints its cell. */
export interface ValueCell {
  value: number;
  unit: ValueUnit;
  note?: string;
  shade?: number;
}
export type Cell = string | number | null | ValueCell;

export interface GridSection {
  /** A group's name (a breakdown value), null for an ungrouped table. */
  title: string | null;
  rows: Array<{ head: string; cells: Cell[] }>;
}

/** What the result table shows and the CSV holds: the chart's numbers. */
export interface Grid {
  /** Column headers; the first heads the row headers. */
  columns: string[];
  sections: GridSection[];
}

const valueCell = (value: number, unit: ValueUnit): Cell => (unit === 'number' ? value : { value, unit });

let regionNames: Intl.DisplayNames | undefined;
/** A country code as the map's table writes it: "United States (US)"; a value that is no region as it is. */
export function countryText(code: string): string {
  regionNames ??= new Intl.DisplayNames(undefined, { type: 'region', fallback: 'none' });
  let name: string | undefined;
  try {
    name = /^[A-Za-z]{2}$/.test(code) ? regionNames.of(code.toUpperCase()) : undefined;
  } catch {
    name = undefined;
  }
  return name ? `${name} (${code})` : code;
}

function trendsGrid(view: TrendsView): Grid {
  const single = (rows: GridSection['rows']): Grid['sections'] => [{ title: null, rows }];
  if (view.labels.length === 0 || !isTimeSeries(view.display)) {
    const map = view.display === 'map';
    const head = map ? 'Country' : 'Series';
    const rowHead = (s: TrendSeriesView) =>
      map && s.breakdownValue !== null ? countryText(s.breakdownValue) : s.label;
    if (!view.compare) {
      return {
        columns: [head, 'Value'],
        sections: single(view.series.map((s) => ({ head: rowHead(s), cells: [valueCell(s.total, view.unit)] }))),
      };
    }
    const previous = new Map(view.series.filter((s) => s.period === 'previous').map((s) => [s.colour, s.total]));
    return {
      columns: [head, 'Current period', 'Previous period', 'Change'],
      sections: single(
        view.series
          .filter((s) => s.period !== 'previous')
          .map((s) => {
            const before = previous.get(s.colour);
            return {
              head: rowHead(s),
              cells: [
                valueCell(s.total, view.unit),
                before === undefined ? null : valueCell(before, view.unit),
                before === undefined ? null : formatChange(s.total, before),
              ],
            };
          }),
      ),
    };
  }
  // The previous period's dates, written as the current period's are.
  const previousDays = view.compare ? view.series.find((s) => s.period === 'previous')?.labels : undefined;
  return {
    columns: ['Date', ...(previousDays ? ['Previous period date'] : []), ...view.series.map((s) => s.label)],
    sections: single(
      view.labels.map((label, row) => ({
        head: label,
        cells: [
          ...(previousDays ? [previousDays[row] ?? null] : []),
          ...view.series.map((s) => (s.data[row] === undefined ? null : valueCell(s.data[row], view.unit))),
        ],
      })),
    ),
  };
}

const funnelRows = (steps: FunnelStepView[]): GridSection['rows'] =>
  steps.map((step, index) => ({
    head: `${index + 1}. ${step.name}`,
    cells: [
      step.count,
      { value: step.conversion, unit: 'ratio' },
      { value: step.fromPrevious, unit: 'ratio' },
      index === 0 ? null : step.dropped,
      step.averageTime === null ? null : { value: step.averageTime, unit: 'duration' },
      step.medianTime === null ? null : { value: step.medianTime, unit: 'duration' },
    ],
  }));

/** The table of a result (null when there is nothing to show). */
export function resultGrid(view: ResultView, actors: ActorWords = PERSONS): Grid | null {
  switch (view.type) {
    case 'trends':
      return trendsGrid(view);
    case 'funnel':
      return {
        columns: [
          'Step',
          actorsTitle(actors),
          'Conversion',
          'From previous step',
          'Dropped off',
          'Average time',
          'Median time',
        ],
        sections: view.groups
          ? [
              { title: 'All', rows: funnelRows(view.steps) },
              ...view.groups.map((group) => ({ title: group.breakdownValue, rows: funnelRows(group.steps) })),
            ]
          : [{ title: null, rows: funnelRows(view.steps) }],
      };
    case 'time-to-convert':
      return {
        columns: ['Time to convert', view.counted],
        sections: [
          { title: null, rows: view.bins.map((bin) => ({ head: formatDuration(bin.seconds), cells: [bin.count] })) },
        ],
      };
    case 'retention': {
      const periods = Array.from({ length: view.periods }, (_, period) => period);
      return {
        columns: ['Cohort', ...periods.map((period) => `${view.periodName} ${period}`)],
        sections: view.groups.map((group) => ({
          title: group.label,
          rows: [
            ...group.cohorts.map((cohort) => {
              const first = cohort.counts[0] ?? 0;
              return {
                head: cohort.head,
                cells: periods.map((period): Cell => {
                  const count = cohort.counts[period];
                  if (count === undefined) return null;
                  const share = first > 0 ? count / first : 0;
                  return first > 0
                    ? { value: count, unit: 'number', note: formatValue(share, 'ratio'), shade: share }
                    : count;
                }),
              };
            }),
            {
              head: 'Average',
              cells: group.curve.map((share): Cell =>
                share === null ? null : { value: share, unit: 'ratio', shade: share },
              ),
            },
          ],
        })),
      };
    }
    case 'paths':
      return {
        columns: ['From', 'To', 'Persons', 'Average time'],
        sections: [
          {
            title: null,
            rows: view.edges.map((edge) => ({
              head: nodeText(edge.source),
              cells: [
                nodeText(edge.target),
                edge.value,
                edge.averageTime === null ? null : { value: edge.averageTime, unit: 'duration' },
              ],
            })),
          },
        ],
      };
    case 'empty':
      return null;
  }
}

/** A cell as the table shows it. */
export function cellText(cell: Cell): string {
  if (cell === null) return '–';
  if (typeof cell === 'number') return formatNumber(cell);
  if (typeof cell === 'string') return cell;
  const text = formatValue(cell.value, cell.unit);
  return cell.note ? `${text} (${cell.note})` : text;
}

/** A text a spreadsheet would run as a formula gets a leading apostrophe (numbers such as -12.5% stay). */
const defuse = (text: string) => (/^[=+\-@\t\r]/.test(text) && !/^[-+]?[\d.,]+%?$/.test(text) ? `'${text}` : text);
const quote = (raw: string) => {
  const text = defuse(raw);
  return /[",\n\r]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The grid as CSV (RFC 4180: CRLF lines, fields quoted when needed): plain numbers, the rest as shown. */
export function gridCsv(grid: Grid): string {
  const grouped = grid.sections.some((section) => section.title !== null);
  const lines = [[...(grouped ? ['Breakdown'] : []), ...grid.columns]];
  for (const section of grid.sections) {
    for (const row of section.rows) {
      const cells = row.cells.map((cell) =>
        typeof cell === 'number' ? String(cell) : cell === null ? '' : cellText(cell),
      );
      lines.push([...(grouped ? [section.title ?? ''] : []), row.head, ...cells]);
    }
  }
  return csvText(lines);
}

/** Lines of cells as CSV (RFC 4180: CRLF lines, fields quoted when needed, formulas defused). */
export function csvText(lines: readonly (readonly string[])[]): string {
  return lines.map((line) => line.map(quote).join(',')).join('\r\n') + '\r\n';
}
