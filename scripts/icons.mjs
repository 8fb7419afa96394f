// Draws the app's PNG icons from public/icon.svg with Debian's Chromium (the one the e2e tests
// use): `node scripts/icons.mjs` after changing the SVG, then commit the PNGs. A phone's home
// screen wants PNGs; the maskable one fills its square, the mark inside the centre's safe zone
// (a circle of 80 % of the width), so that a launcher's mask never cuts into it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { root } from './lib.mjs';

const svg = readFileSync(join(root, 'public/icon.svg'), 'utf8');
const background = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? '#4f46e5';
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

const icons = [
  { file: 'icon-192.png', size: 192, body: `<img src="${dataUrl}" style="width:100%;height:100%">` },
  { file: 'icon-512.png', size: 512, body: `<img src="${dataUrl}" style="width:100%;height:100%">` },
  {
    file: 'icon-maskable-512.png',
    size: 512,
    body: `<div style="width:100%;height:100%;background:${background};display:grid;place-items:center"><img src="${dataUrl}" style="width:70%;height:70%"></div>`,
  },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu'],
});
try {
  for (const { file, size, body } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<body style="margin:0;background:transparent">${body}</body>`);
    await page
      .locator('img')
      .last()
      .evaluate((img) => img.decode());
    writeFileSync(join(root, 'public', file), await page.screenshot({ omitBackground: true }));
    await page.close();
    console.log(`public/${file}`);
  }
} finally {
  await browser.close();
}
