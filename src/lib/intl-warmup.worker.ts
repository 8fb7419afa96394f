// Runs in a worker (see intl-warmup.ts): makes one formatter of each kind the first screens use,
// which loads the locale's data for the whole browser process, then says so.
const now = new Date();
new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }).format(now);
new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-3, 'hour');
new Intl.NumberFormat().format(12345.5);
(self as unknown as { postMessage(message: string): void }).postMessage('ready');
