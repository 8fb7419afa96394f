/** Saving what the insight shows as a file, made in the browser. */

/** A title as a file name: letters, digits, dashes and underscores; "insight" when nothing is left. */
export function fileName(title: string, extension: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return `${base || 'insight'}.${extension}`;
}

/** Offers `href` for download as `name` (an anchor with `download`, clicked). */
function save(href: string, name: string): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/** Saves a Blob through an object URL (revoked once the download has started). */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  save(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function downloadCsv(csv: string, title: string): void {
  downloadBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName(title, 'csv'));
}

/**
 * The element drawn as a PNG as it looks on screen, on its own background (so the dark scheme's
 * light text stays on dark); white when it has none. html-to-image is loaded on the first use.
 */
export async function downloadPng(node: HTMLElement, title: string): Promise<void> {
  const { toPng } = await import('html-to-image');
  const background = getComputedStyle(node).backgroundColor;
  const transparent = background === '' || background === 'transparent' || /^rgba\(.*,\s*0\)$/.test(background);
  const url = await toPng(node, { backgroundColor: transparent ? '#ffffff' : background, pixelRatio: 2 });
  save(url, fileName(title, 'png'));
}
