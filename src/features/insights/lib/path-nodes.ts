/**
 * A paths node is its step and its item, written `<step>_<item>` by the API (`2_/pricing`).
 * The Sankey and the table read it through these.
 */

/** `2_/pricing` → `/pricing`. */
export const stepItem = (node: string) => node.replace(/^\d+_/, '');

/** `2_/pricing` → 2 (0 when the node has no step). */
export const stepOf = (node: string) => Number(/^(\d+)_/.exec(node)?.[1] ?? 0);

/** A node as the table writes it: `2_/pricing` → `2. /pricing` (as funnel steps are written). */
export const nodeText = (node: string) => (/^\d+_/.test(node) ? `${stepOf(node)}. ${stepItem(node)}` : node);
