// Runs in a worker (see src/warm-up.ts). Makes one formatter of each kind the first screens use, which
// loads the locale's data for the whole browser process; then, on the page's message, measures a
// letter in each font the page sends (CSS `font` values), which resolves those families for the
// process; then says so.
const scope = self as unknown as {
  postMessage(message: string): void;
  onmessage: ((event: MessageEvent<unknown>) => void) | null;
};

new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
}).format(new Date());
new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-3, 'hour');
new Intl.NumberFormat().format(12345.5);

scope.onmessage = ({ data }) => {
  try {
    const context = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1).getContext('2d') : null;
    if (context && Array.isArray(data)) {
      for (const font of data) {
        if (typeof font !== 'string') continue;
        context.font = font;
        context.measureText('a');
      }
    }
  } finally {
    scope.postMessage('ready');
  }
};
