import { sendOutbound, type OutboundPolicy } from '../net/outbound.ts';
import type { SandboxHost } from './sandbox/quickjs.ts';

/** What a source plugin's `fetch` may reach: the hosts of the URLs in its config, under the outbound policy. */
export interface PluginFetchRules {
  hosts: readonly string[];
  policy: OutboundPolicy;
}

/**
 * The `fetch` a source plugin's sandbox gives its code: to the configured hosts only (any other
 * is an error the plugin sees), through the outbound policy, 5 s per request, the first 1 MB of
 * the answer. Runs in the sandbox's worker thread, so a plugin's requests cost the server's
 * event loop nothing.
 */
export function pluginFetch(rules: PluginFetchRules): SandboxHost['fetch'] {
  const hosts = new Set(rules.hosts);
  return async (url, init) => {
    const host = new URL(url).host.toLowerCase();
    if (!hosts.has(host)) throw new Error(`fetch to ${host} is not allowed: only hosts in the plugin's config are.`);
    const res = await sendOutbound(
      url,
      {
        method: init.method === 'GET' ? 'GET' : 'POST',
        headers: init.headers ?? {},
        body: init.body,
        timeoutMs: 5000,
        readBodyBytes: 1_000_000,
      },
      rules.policy,
    );
    return { status: res.status, body: res.body ?? '' };
  };
}
