import { Resolver } from 'node:dns/promises';

/**
 * TXT records of `name` (each record's strings joined), through the servers of `DNS_SERVER`
 * (comma-separated `host` or `host:port`, e.g. `127.0.0.1:5353`) or the system's resolver.
 * A name without records, or a resolver that cannot be reached, gives an empty list.
 */
export async function lookupTxt(name: string, servers: string | undefined = process.env.DNS_SERVER): Promise<string[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  const list =
    servers
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  if (list.length > 0) resolver.setServers(list);
  try {
    const records = await resolver.resolveTxt(name);
    return records.map((parts) => parts.join(''));
  } catch {
    return [];
  } finally {
    resolver.cancel();
  }
}
