/**
 * Test-only: jsdom lays nothing out, so dnd-kit's keyboard sensor (which measures rows with
 * getBoundingClientRect) finds no row below another. This gives each sortable row the box it
 * would have in a column, 60 px apart, for the tests of a describe block.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export function layOutSortableRowsInTheseTests(): void {
  beforeEach(() => {
    const original = Element.prototype.getBoundingClientRect;
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const rows = [...document.querySelectorAll('[data-sortable-row]')];
      const row = this.closest('[data-sortable-row]');
      const i = row ? rows.indexOf(row) : -1;
      if (i < 0) return original.call(this);
      const top = i * 60;
      return {
        x: 0,
        y: top,
        top,
        left: 0,
        right: 600,
        bottom: top + 50,
        width: 600,
        height: 50,
        toJSON: () => ({}),
      } as DOMRect;
    });
  });
  afterEach(() => vi.restoreAllMocks());
}
