/**
 * Where the API key lives: in memory, and in sessionStorage when "remember in this tab" is on.
 * Never in localStorage, never in a URL the server sees.
 */

export interface Credentials {
  /** Origin of the API server, without a trailing slash (e.g. `http://localhost:8000`). */
  baseUrl: string;
  key: string;
}

const STORAGE_KEY = 'analytics-dashboard.credentials';

type Listener = () => void;

let current: Credentials | null = null;
let loadedFromStorage = false;
const listeners = new Set<Listener>();

function readSessionStorage(): Credentials | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    if (
      parsed &&
      typeof parsed === 'object' &&
      'baseUrl' in parsed &&
      typeof parsed.baseUrl === 'string' &&
      'key' in parsed &&
      typeof parsed.key === 'string' &&
      parsed.key !== ''
    ) {
      return { baseUrl: parsed.baseUrl, key: parsed.key };
    }
  } catch {
    // Storage unavailable or corrupted: behave as signed out.
  }
  return null;
}

/** Removes a trailing slash so that `baseUrl + '/api/...'` is always right. */
export function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export function defaultBaseUrl(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}

export function getCredentials(): Credentials | null {
  if (!loadedFromStorage) {
    loadedFromStorage = true;
    current ??= readSessionStorage();
  }
  return current;
}

export function setCredentials(credentials: Credentials, remember: boolean): void {
  current = { baseUrl: normalizeBaseUrl(credentials.baseUrl), key: credentials.key };
  loadedFromStorage = true;
  try {
    if (remember) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(current));
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // sessionStorage may be disabled: the key then lives in memory only.
  }
  listeners.forEach((listener) => listener());
}

export function clearCredentials(): void {
  current = null;
  loadedFromStorage = true;
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
  listeners.forEach((listener) => listener());
}

/** Forgets what is in memory and reads sessionStorage again (tests; a new "tab"). */
export function resetCredentialsStore(): void {
  current = null;
  loadedFromStorage = false;
}

export function subscribeCredentials(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
