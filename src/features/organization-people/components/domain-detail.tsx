import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { toast } from '@/lib/toast';
import { domainEndpoints } from '@/contract/domains';
import { ConfirmDelete } from '@/components/feedback/confirm-delete';
import { PageTitle } from '@/components/layout/page-title';
import { peopleKeys } from '../api/people.keys';
import { peopleMutations, useDomainChange } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { DomainAccess, SamlForm } from './domain-settings';
import { DomainVerification } from './domain-verification';
import { MEMBERS_CANNOT_MANAGE, useCanManageDomains, VerifiedBadge } from './domains-page';

const route = getRouteApi('/_authed/organizations/$organizationId/domains/$domainId');

/** One domain: its verification, sign-in settings, SAML, and delete. */
export function DomainDetail() {
  const { organizationId, domainId } = route.useParams();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const { data: domain } = useSuspenseQuery(peopleQueries.domain(organizationId, domainId));
  const { update, verify } = useDomainChange(organizationId, domainId);
  const { mutateAsync: destroy } = useMutation(peopleMutations.deleteDomain(organizationId));
  const canManage = useCanManageDomains(organizationId);
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <PageTitle
          title={
            <span className="inline-flex items-center gap-3">
              {domain.domain} <VerifiedBadge domain={domain} />
            </span>
          }
          description={
            domain.is_verified
              ? 'People with an address at this domain can join automatically and be held to single sign-on.'
              : 'Verify the domain to provision people automatically and enforce single sign-on.'
          }
        />
        {canManage ? (
          <ConfirmDelete
            triggerLabel="Delete domain"
            scope={domainEndpoints.destroy.access}
            title={`Delete ${domain.domain}`}
            description={
              <>
                People with an @{domain.domain} address no longer join automatically, and SSO is no longer enforced for
                them.
              </>
            }
            confirmLabel={`Delete ${domain.domain}`}
            onConfirm={async () => {
              await destroy(domain.id);
              toast.success(`${domain.domain} deleted`);
              await navigate({ to: '/organizations/$organizationId/domains', params: { organizationId } });
              queryClient.removeQueries({ queryKey: peopleKeys.domainDetail(organizationId, domain.id) });
            }}
          />
        ) : null}
      </div>
      {canManage ? null : <p className="text-sm text-gray-700 dark:text-gray-300">{MEMBERS_CANNOT_MANAGE}</p>}
      <DomainVerification domain={domain} verify={verify} canManage={canManage} />
      <DomainAccess organizationId={organizationId} domain={domain} update={update} canManage={canManage} />
      <SamlForm key={domain.id} domain={domain} update={update} canManage={canManage} />
    </div>
  );
}
