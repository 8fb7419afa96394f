import { CopyButton } from '@/components/ui/copy-button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getCredentials } from '@/lib/auth-store';

/** Where the SDKs send: the server this dashboard talks to (its own origin when it serves the app). */
function serverUrl(): string {
  return getCredentials()?.baseUrl || window.location.origin;
}

function snippets(token: string, host: string) {
  return [
    {
      id: 'web',
      label: 'Web (posthog-js)',
      code: `import posthog from 'posthog-js';\n\nposthog.init('${token}', { api_host: '${host}' });\nposthog.capture('signed up', { plan: 'pro' });`,
    },
    {
      id: 'node',
      label: 'Node.js (posthog-node)',
      code: `import { PostHog } from 'posthog-node';\n\nconst client = new PostHog('${token}', { host: '${host}' });\nclient.capture({ distinctId: 'user-123', event: 'signed up', properties: { plan: 'pro' } });\nawait client.shutdown();`,
    },
  ];
}

/** How to send this project's events: the SDKs' setup with its token and this server's address. */
export function SendEvents({ token }: { token: string }) {
  const all = snippets(token, serverUrl());
  return (
    <Tabs defaultValue="web">
      <TabsList aria-label="SDK">
        {all.map((s) => (
          <TabsTrigger key={s.id} value={s.id}>
            {s.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {all.map((s) => (
        <TabsContent key={s.id} value={s.id} className="relative">
          {/* Wrapped, not scrolled: the whole snippet is read without a sideways scroll, on a phone too. */}
          <figure aria-label={`${s.label} snippet`}>
            <pre className="rounded-lg bg-gray-100 p-4 pr-24 font-mono text-xs whitespace-pre-wrap wrap-anywhere dark:bg-gray-900">
              <code>{s.code}</code>
            </pre>
          </figure>
          <div className="absolute top-2 right-2">
            <CopyButton value={s.code} what={`${s.label} snippet`} />
          </div>
        </TabsContent>
      ))}
    </Tabs>
  );
}
