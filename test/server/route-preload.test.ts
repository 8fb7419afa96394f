import { describe, expect, it } from 'vitest';
import {
  firstViewFiles,
  preloadScript,
  preloadTable,
  routePattern,
  withCompileHint,
  type Manifest,
} from '../../scripts/route-preload.ts';

/** The build step that lets index.html fetch the first route's code beside the entry. */

describe('routePattern', () => {
  const matches = (file: string, path: string) => new RegExp(routePattern(file)!).test(path);

  it('maps route files to the paths they serve', () => {
    expect(matches('src/routes/_authed/organizations/index.tsx', '/organizations')).toBe(true);
    expect(matches('src/routes/_authed/organizations/index.tsx', '/organizations/')).toBe(true);
    expect(matches('src/routes/_authed/organizations/index.tsx', '/organizations/1')).toBe(false);
    expect(matches('src/routes/_authed/organizations/$organizationId/route.tsx', '/organizations/1/members')).toBe(
      true,
    );
    expect(
      matches(
        'src/routes/_authed/organizations/$organizationId/batch-exports/new.tsx',
        '/organizations/1/batch-exports/new',
      ),
    ).toBe(true);
    expect(
      matches(
        'src/routes/_authed/organizations/$organizationId/batch-exports/new.tsx',
        '/organizations/1/batch-exports/news',
      ),
    ).toBe(false);
    expect(matches('src/routes/sign-in.tsx', '/sign-in')).toBe(true);
    expect(matches('src/routes/sign-in.tsx', '/sign-inx')).toBe(false);
    expect(routePattern('src/lib/auth.ts')).toBeNull();
  });
});

describe('preloadTable', () => {
  const manifest: Manifest = {
    'src/main.tsx': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'] },
    '_shared.js': { file: 'assets/shared.js' },
    '_form.js': { file: 'assets/form.js', imports: ['_shared.js'] },
    'src/routes/_authed.tsx?tsr-split=component': { file: 'assets/authed.js', imports: ['_shared.js'] },
    'src/routes/_authed/organizations/index.tsx?tsr-split=component': { file: 'assets/orgs.js', imports: ['_form.js'] },
    'src/routes/_authed/organizations/index.tsx?tsr-split=errorComponent': { file: 'assets/orgs-error.js' },
    'src/routes/_authed/organizations/index.tsx?tsr-split=errorComponent---notFoundComponent---pendingComponent': {
      file: 'assets/orgs-pending.js',
    },
    'src/routes/sign-in.tsx?tsr-split=component---loader': { file: 'assets/sign-in.js', imports: ['_form.js'] },
  };
  const chunksFor = (path: string) =>
    [
      ...new Set(
        preloadTable(manifest)
          .filter(([pattern]) => new RegExp(pattern).test(path))
          .flatMap(([, files]) => files),
      ),
    ].sort();

  it("gives a route its component, loader and pending chunks with their imports, and its pathless layout's, never the entry's", () => {
    // The router loads the pending component with the component (its group holds the error
    // component too); an error component alone is fetched only on an error.
    expect(chunksFor('/organizations')).toEqual([
      'assets/authed.js',
      'assets/form.js',
      'assets/orgs-pending.js',
      'assets/orgs.js',
    ]);
  });

  it("keeps a pathless layout's chunks to the routes below it", () => {
    expect(chunksFor('/sign-in')).toEqual(['assets/form.js', 'assets/sign-in.js']);
  });

  it('writes a script that adds one low-priority modulepreload link per chunk of the current path', () => {
    const added: string[] = [];
    type Link = { href: string; rel: string; fetchPriority: string };
    const document = {
      createElement: () => ({}) as Partial<Link>,
      head: { appendChild: (l: Link) => added.push(`${l.rel} ${l.fetchPriority} ${l.href}`) },
    };
    new Function('location', 'document', preloadScript(preloadTable(manifest), '/app/'))(
      { pathname: '/organizations' },
      document,
    );
    expect(added.sort()).toEqual([
      'modulepreload low /app/assets/authed.js',
      'modulepreload low /app/assets/form.js',
      'modulepreload low /app/assets/orgs-pending.js',
      'modulepreload low /app/assets/orgs.js',
    ]);
  });
});

describe('compile hints', () => {
  const manifest: Manifest = {
    'src/main.tsx': { file: 'assets/index.js', isEntry: true, imports: ['_shell.js'] },
    '_shell.js': { file: 'assets/shell.js' },
    '_chart.js': { file: 'assets/chart.js' },
    'src/routes/_authed/organizations/index.tsx?tsr-split=component': { file: 'assets/orgs.js', imports: ['_form.js'] },
    '_form.js': { file: 'assets/form.js' },
    'src/routes/_authed/organizations/index.tsx?tsr-split=errorComponent': { file: 'assets/orgs-error.js' },
    'index.css': { file: 'assets/index.css' },
  };

  it("marks the shell and every route's first-view chunks, not code loaded on demand or on an error", () => {
    expect(firstViewFiles(manifest, preloadTable(manifest))).toEqual([
      'assets/form.js',
      'assets/index.js',
      'assets/orgs.js',
      'assets/shell.js',
    ]);
  });

  it('puts the hint on the first line, once', () => {
    const code = 'import{a}from"./shell.js";a();';
    expect(withCompileHint(code)).toBe(`//# allFunctionsCalledOnLoad\n${code}`);
    expect(withCompileHint(withCompileHint(code))).toBe(withCompileHint(code));
  });
});
