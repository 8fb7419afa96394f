import { useState } from 'react';
import { DOMAIN_CHALLENGE_RECORD_PREFIX, domainEndpoints, type Domain } from '@/contract/domains';
import { ScopedAction } from '@/components/feedback/scoped-action';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { formatDateTime } from '@/lib/dates';
import { describeError } from '@/lib/error-messages';
import type { useDomainChange } from '../api/people.mutations';

function RecordRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <dt className="w-16 text-sm font-medium">{label}</dt>
      <dd className="flex min-w-0 flex-1 items-center gap-2">
        <code className="min-w-0 break-all rounded bg-gray-100 px-2 py-1 text-sm dark:bg-gray-800">{value}</code>
        <CopyButton value={value} what={`the TXT record ${label.toLowerCase()}`} />
      </dd>
    </div>
  );
}

/** The TXT record to publish, with copy buttons, and "Verify" reporting the outcome in words. */
export function DomainVerification({
  domain,
  verify,
  canManage,
}: {
  domain: Domain;
  verify: ReturnType<typeof useDomainChange>['verify'];
  canManage: boolean;
}) {
  const [outcome, setOutcome] = useState<string>('');
  const recordName = `${DOMAIN_CHALLENGE_RECORD_PREFIX}${domain.domain}`;
  if (domain.is_verified) {
    return (
      <section aria-labelledby="verification-heading" className="space-y-2">
        <h2 id="verification-heading" className="text-lg font-semibold">
          Verification
        </h2>
        <p className="text-sm">Verified on {formatDateTime(domain.verified_at)}.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="verification-heading" className="space-y-3">
      <h2 id="verification-heading" className="text-lg font-semibold">
        Verification
      </h2>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Publish this TXT record in the DNS of {domain.domain}, then verify. DNS changes can take a while to reach
        everyone.
      </p>
      <dl className="space-y-2">
        <RecordRow label="Name" value={recordName} />
        <RecordRow label="Value" value={domain.verification_challenge} />
      </dl>
      {canManage ? (
        <ScopedAction scope={domainEndpoints.verify.access}>
          <Button
            variant="primary"
            disabled={verify.isPending}
            onClick={() => {
              setOutcome('');
              verify.mutate(undefined, {
                onSuccess: (result) =>
                  setOutcome(
                    result.is_verified
                      ? `${domain.domain} is verified.`
                      : `Not verified yet: no TXT record ${recordName} with this value was found. Check the record and try again in a few minutes.`,
                  ),
                onError: (error) => setOutcome(`Couldn't verify: ${describeError(error)}`),
              });
            }}
          >
            {verify.isPending ? 'Verifying…' : 'Verify'}
          </Button>
        </ScopedAction>
      ) : null}
      <p role="status" className="text-sm">
        {outcome}
      </p>
    </section>
  );
}
