import { useMemo, useState } from 'react';
import { Sankey, type SankeyNodeProps, type SankeyLinkProps } from 'recharts';
import { formatNumber } from '../../lib/format';
import { stepItem, stepOf } from '../../lib/path-nodes';
import type { PathsView } from '../../lib/view-types';
import { colour, Sized } from './chart-frame';

/** A node's label: its item, a URL without its origin, shortened. */
const shortItem = (node: string) => {
  const item = stepItem(node).replace(/^https?:\/\/[^/]+(?=\/|$)/, '') || '/';
  return item.length > 32 ? `${item.slice(0, 31)}…` : item;
};
/** A node in words with its step (the same page at two steps is two nodes): `/pricing (step 2)`. */
const stepLabel = (node: string) => `${stepItem(node)} (step ${stepOf(node)})`;
/** `1 person`, `2,032 persons`. */
const persons = (n: number) => `${formatNumber(n)} ${n === 1 ? 'person' : 'persons'}`;
/** A link in words with its count (`count`: the bare number in its title, with "persons" where it is pointed at). */
const linkLabel = (source: string, target: string, count: string) =>
  `${stepLabel(source)} → ${stepLabel(target)}: ${count}`;
/** A link at least this thick (px) carries its count; a thinner one shows it when pointed at. */
export const LABELLED_WIDTH = 11;

/** Room right of the last step's bars for their labels (px). */
const LABEL_ROOM = 170;
/** The links drawn: the largest (a diagram of hundreds of links is unreadable; the table has them all). */
export const MAX_LINKS = 40;

interface Graph {
  /**
   * `persons`: how many persons reach the node (its step's item), from all the API's links, not
   * only the drawn ones: the most of its links in or out (in, past the first step: each person at
   * a step came by one link; out, at the first).
   */
  nodes: Array<{ name: string; column: number; persons: number }>;
  links: Array<{ source: number; target: number; value: number }>;
}

/** Nodes from the edges' `source`/`target` (unique with their step prefix, so the graph has no cycles). */
export function pathsGraph(view: PathsView): Graph {
  const index = new Map<string, number>();
  const nodes: Graph['nodes'] = [];
  const node = (name: string) => {
    let at = index.get(name);
    if (at === undefined) {
      at = nodes.length;
      index.set(name, at);
      nodes.push({ name, column: stepOf(name), persons: 0 });
    }
    return at;
  };
  const edges = view.edges
    .filter((edge) => edge.value > 0 && edge.source !== edge.target)
    .sort((a, b) => b.value - a.value);
  const links = edges
    .slice(0, MAX_LINKS)
    .map((edge) => ({ source: node(edge.source), target: node(edge.target), value: edge.value }));
  const into = new Map<string, number>();
  const outOf = new Map<string, number>();
  for (const edge of edges) {
    into.set(edge.target, (into.get(edge.target) ?? 0) + edge.value);
    outOf.set(edge.source, (outOf.get(edge.source) ?? 0) + edge.value);
  }
  for (const n of nodes) n.persons = Math.max(into.get(n.name) ?? 0, outOf.get(n.name) ?? 0);
  // Step by step, the busiest first: the order the diagram stacks them in and Tab visits them.
  const order = nodes
    .map((_, i) => i)
    .sort((a, b) => nodes[a]!.column - nodes[b]!.column || nodes[b]!.persons - nodes[a]!.persons);
  const at = new Map(order.map((from, to) => [from, to]));
  return {
    nodes: order.map((i) => nodes[i]!),
    links: links.map((link) => ({ ...link, source: at.get(link.source)!, target: at.get(link.target)! })),
  };
}

/** The links on every path through a node (or a link): all its ancestors' and descendants' links. */
function pathLinks(graph: Graph, from: { node: number } | { link: number }): Set<number> {
  const found = new Set<number>();
  const walk = (start: number, forward: boolean) => {
    const queue = [start];
    const seen = new Set(queue);
    while (queue.length > 0) {
      const at = queue.pop()!;
      graph.links.forEach((link, i) => {
        if ((forward ? link.source : link.target) !== at) return;
        found.add(i);
        const next = forward ? link.target : link.source;
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      });
    }
  };
  if ('node' in from) {
    walk(from.node, true);
    walk(from.node, false);
  } else {
    const link = graph.links[from.link]!;
    found.add(from.link);
    walk(link.target, true);
    walk(link.source, false);
  }
  return found;
}

/** The diagram's scroll area takes focus so keyboard users can scroll it (as the data table does). */
const SCROLLS = { tabIndex: 0, role: 'region', 'aria-label': 'Paths diagram (scrolls sideways)' } as const;

type Hover = { node: number } | { link: number } | null;

/** Paths as a Sankey diagram: hovering a step or a link highlights the paths through it. */
export function PathsSankey({ view }: { view: PathsView }) {
  const graph = useMemo(() => pathsGraph(view), [view]);
  const [hover, setHover] = useState<Hover>(null);
  /** The step that has keyboard focus (its ring is drawn: an SVG group draws no outline of its own). */
  const [focused, setFocused] = useState<number | null>(null);
  // On a touch screen nothing hovers (and the chart's touch handling swallows the emulated mouse
  // events): a touch highlights what it lands on, until the next touch.
  const touched = (event: { pointerType: string }, target: Hover) => {
    if (event.pointerType !== 'mouse') setHover(target);
  };
  const lit = useMemo(() => (hover ? pathLinks(graph, hover) : null), [graph, hover]);
  const columns = new Map<number, number>();
  graph.nodes.forEach((n) => columns.set(n.column, (columns.get(n.column) ?? 0) + 1));
  const height = Math.max(320, Math.min(720, Math.max(0, ...columns.values()) * 28));
  const lastColumn = Math.max(0, ...columns.keys());
  /**
   * The width its labels need: about 180 px per step, at least 360 px: more than a phone leaves it.
   * Every step's label stands right of its bars, the last step's in a margin of its own: left of
   * them it would sit on the counts at the links' ends.
   */
  const needed = (lastColumn || 1) * 180 + LABEL_ROOM + 10;
  const hovered =
    hover === null
      ? null
      : 'node' in hover
        ? `${stepLabel(graph.nodes[hover.node]!.name)}: ${persons(graph.nodes[hover.node]!.persons)}`
        : linkLabel(
            graph.nodes[graph.links[hover.link]!.source]!.name,
            graph.nodes[graph.links[hover.link]!.target]!.name,
            persons(graph.links[hover.link]!.value),
          );

  const Link = (props: SankeyLinkProps) => {
    const { sourceX, targetX, sourceY, targetY, sourceControlX, targetControlX, linkWidth, index, payload } = props;
    const on = lit?.has(index) ?? false;
    return (
      <g>
        <path
          d={`M${sourceX},${sourceY}C${sourceControlX},${sourceY} ${targetControlX},${targetY} ${targetX},${targetY}`}
          fill="none"
          stroke={colour(0)}
          strokeWidth={Math.max(1, linkWidth)}
          strokeOpacity={lit ? (on ? 0.6 : 0.08) : 0.3}
          onMouseEnter={() => setHover({ link: index })}
          onMouseLeave={() => setHover(null)}
          onPointerDown={(event) => touched(event, { link: index })}
          data-path-link
        >
          <title>
            {linkLabel(payload.source.name as string, payload.target.name as string, formatNumber(payload.value))}
          </title>
        </path>
        {/* The count at the link's end, inside its band: bands never overlap there, so neither do
            the counts. A band thinner than the text shows its count while it is pointed at (and
            in the table). */}
        {linkWidth >= LABELLED_WIDTH || (hover !== null && 'link' in hover && hover.link === index) ? (
          <text
            x={targetX - 4}
            y={targetY}
            dy="0.35em"
            textAnchor="end"
            fontSize={11}
            fill="currentColor"
            fillOpacity={lit && !on ? 0.35 : 1}
            fontWeight={on ? 600 : 400}
            className="stroke-white dark:stroke-gray-950"
            strokeWidth={3}
            paintOrder="stroke"
            pointerEvents="none"
            data-link-count
          >
            {formatNumber(payload.value)}
          </text>
        ) : null}
      </g>
    );
  };
  const Node = (props: SankeyNodeProps) => {
    const { x, y, width, height: h, index } = props;
    const { name, persons: through } = graph.nodes[index]!;
    // Each step takes focus (Tab), which lights its paths and names it as pointing does, with a
    // ring around its bar: the diagram works from the keyboard too.
    return (
      <g
        tabIndex={0}
        role="img"
        aria-label={`${stepLabel(name)}: ${persons(through)}`}
        className="outline-none"
        onMouseEnter={() => setHover({ node: index })}
        onMouseLeave={() => setHover(null)}
        onPointerDown={(event) => touched(event, { node: index })}
        onFocus={() => {
          setFocused(index);
          setHover({ node: index });
        }}
        onBlur={() => {
          setFocused(null);
          setHover(null);
        }}
        data-path-step
      >
        <rect x={x} y={y} width={width} height={Math.max(1, h)} fill={colour(1)} />
        {focused === index ? (
          <rect
            x={x - 3}
            y={y - 3}
            width={width + 6}
            height={Math.max(1, h) + 6}
            fill="none"
            className="stroke-indigo-600 dark:stroke-indigo-400"
            strokeWidth={2}
            data-focus-ring
          />
        ) : null}
        <title>{`${stepLabel(name)}: ${formatNumber(through)}`}</title>
        {h >= 10 ? (
          <text x={x + width + 6} y={y + h / 2} dy="0.35em" fontSize={12} fill="currentColor" data-step-label>
            {`${shortItem(name)} (${formatNumber(through)})`}
          </text>
        ) : null}
      </g>
    );
  };

  return (
    <>
      {/* Two lines kept for what is pointed at (two URLs with their steps wrap beside a desktop's
          builder): a line more would push the diagram from under the pointer, which then leaves
          the link it is naming. */}
      <p className="mb-2 min-h-10 text-sm text-gray-700 dark:text-gray-300">
        {hovered ?? 'Point at or tap a step or a link, or Tab to a step, to follow its paths.'}
      </p>
      {view.edges.length > graph.links.length ? (
        <p className="mb-2 text-xs text-gray-700 dark:text-gray-300">
          The {graph.links.length} largest of {formatNumber(view.edges.length)} links; the table lists them all.
        </p>
      ) : null}
      {/* Narrow screens scroll the diagram sideways, and say so. */}
      <p className="mb-2 text-xs text-gray-700 sm:hidden dark:text-gray-300">
        Scroll the diagram sideways to see every step.
      </p>
      <div className="scroll-cue-x overflow-x-auto" {...SCROLLS}>
        <Sized height={height}>
          {(measured) => {
            const width = Math.max(measured, needed);
            return (
              <Sankey
                width={width}
                height={height}
                data={graph}
                node={Node}
                link={Link}
                // Its own keyboard layer would take Tab before the steps, which are focusable themselves.
                accessibilityLayer={false}
                nodePadding={16}
                nodeWidth={10}
                iterations={32}
                margin={{ top: 8, right: LABEL_ROOM, bottom: 8, left: 8 }}
              />
            );
          }}
        </Sized>
      </div>
    </>
  );
}
