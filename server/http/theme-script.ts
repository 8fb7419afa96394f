import { createHash } from 'node:crypto';

/**
 * The page's only inline script, first in its head (vite.config.ts puts it there): a theme the
 * person chose in the app (src/lib/theme.ts, same storage key) is on <html> before the first
 * paint, so a dark page never flashes light. Without a choice the CSS follows the system alone.
 * Inline because a script file would hold up the first paint for a round trip; the CSP allows
 * exactly this text by its hash.
 */
export const THEME_SCRIPT =
  "try{var t=localStorage.getItem('theme');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}";

export const THEME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
