import {
  FileBraces,
  FileSpreadsheet,
  Megaphone,
  MessageCircle,
  MessageSquare,
  ScrollText,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import type { Plugin } from '@/contract/plugins';
import { Badge } from '@/components/ui/badge';

export const updateAvailable = (plugin: Plugin) =>
  plugin.latest_tag !== null && plugin.tag !== null && plugin.latest_tag !== plugin.tag;

const TYPE_LABELS: Record<string, string> = {
  local: 'Local',
  custom: 'Uploaded',
  repository: 'Repository',
  source: 'Source',
  inline: 'Built in',
};
export const pluginTypeLabel = (type: string | null) => (type ? (TYPE_LABELS[type] ?? type) : '—');

/** The catalogue's icons are names of glyphs (server/plugins/catalogue.ts), not images. */
const GLYPHS: Record<string, LucideIcon> = {
  webhook: Webhook,
  'message-square': MessageSquare,
  'scroll-text': ScrollText,
  megaphone: Megaphone,
  'message-circle': MessageCircle,
  'file-spreadsheet': FileSpreadsheet,
  'file-json': FileBraces,
};

/**
 * The icon as an image the page may load, or null. The server's Content-Security-Policy allows
 * `img-src 'self' data:`: a `data:image/…` URL, a path on this origin, or a URL of this origin.
 * Anything else (another host's URL, a glyph name) would be blocked or is no image: null.
 */
export function iconImageUrl(icon: string | null | undefined, origin: string = window.location.origin): string | null {
  const value = icon?.trim() ?? '';
  if (value === '') return null;
  if (/^data:image\//i.test(value)) return value;
  // a path or an http(s) URL, resolved as the browser would (a path like `/\evil.example/x.png` is another host's)
  if (!value.startsWith('/') && !/^https?:\/\//i.test(value)) return null;
  try {
    const url = new URL(value, origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin ? value : null;
  } catch {
    return null;
  }
}

const TILE = 'inline-flex size-8 shrink-0 items-center justify-center rounded-md';

/**
 * The plugin's icon, 32 px: its image when the page may load it, the catalogue's glyph for a
 * glyph name, else (and when the image fails to load) its first letter in a tile. Decorative:
 * the name is always beside it.
 */
export function PluginIcon({ plugin }: { plugin: Pick<Plugin, 'name' | 'icon'> }) {
  const src = iconImageUrl(plugin.icon);
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return (
      <img
        src={src}
        alt=""
        width={32}
        height={32}
        loading="lazy"
        decoding="async"
        referrerPolicy="no-referrer"
        onError={() => setFailed(src)}
        className={`${TILE} object-contain`}
      />
    );
  }
  const Glyph = src ? undefined : GLYPHS[plugin.icon?.trim() ?? ''];
  return (
    <span
      aria-hidden="true"
      className={`${TILE} bg-indigo-100 text-sm font-semibold text-indigo-900 dark:bg-indigo-950 dark:text-indigo-100`}
    >
      {Glyph ? <Glyph className="size-5" /> : (plugin.name ?? '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

export function TagBadge({ plugin }: { plugin: Plugin }) {
  if (!plugin.tag) return <span className="text-gray-600 dark:text-gray-400">—</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <code className="text-xs">{plugin.tag}</code>
      {updateAvailable(plugin) ? <Badge tone="info">Update available: {plugin.latest_tag}</Badge> : null}
    </span>
  );
}

/** Why a source plugin cannot run in its group, when it cannot. */
export function notRunnable(plugin: Plugin): string | null {
  const caps = plugin.capabilities as { not_runnable?: unknown } | null;
  return caps && typeof caps.not_runnable === 'string' ? caps.not_runnable : null;
}
