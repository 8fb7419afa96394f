import { keepPreviousData, useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { toast } from '@/lib/toast';
import type { Member, MemberRuleInput } from '@/contract/members';
import { userDisplayName } from '@/contract/users';
import { ListPage, usePageSearch, type Column } from '@/components/list-kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, ConfirmDialogCancel } from '@/components/ui/dialog';
import { currentUserQuery } from '@/lib/current-user';
import { formatDate, formatDateTime } from '@/lib/dates';
import { describeError } from '@/lib/error-messages';
import { peopleMutations } from '../api/people.mutations';
import { peopleQueries } from '../api/people.queries';
import { levelLabel } from './levels';
import { MemberLevelSelect } from './member-level-select';
import { membersHeader } from './organization-people-page-states';
import { RemoveMember } from './remove-member';

const route = getRouteApi('/_authed/organizations/$organizationId/members/');

interface RowContext {
  organizationId: string;
  organizationName: string;
  rule: (member: Member) => MemberRuleInput;
  pendingUuid: string | undefined;
  /** False: the change waits for a confirmation (making an owner). */
  setLevel: (member: Member, level: 1 | 8 | 15) => boolean | void;
}

function memberColumns(ctx: RowContext): Column<Member>[] {
  return [
    {
      header: 'Name',
      className: 'min-w-40 max-w-xs break-words font-medium',
      cell: (m) => (
        <>
          {userDisplayName(m.user)}
          {ctx.rule(m).isSelf ? <span className="ml-1 font-normal text-gray-600 dark:text-gray-400">(you)</span> : null}
        </>
      ),
    },
    { header: 'Email', className: 'break-words', cell: (m) => m.user.email },
    {
      header: 'Level',
      cell: (m) => (
        <MemberLevelSelect
          member={m}
          rule={ctx.rule(m)}
          name={userDisplayName(m.user)}
          pending={ctx.pendingUuid === m.user.uuid}
          onChange={(level) => ctx.setLevel(m, level)}
        />
      ),
    },
    {
      header: 'Joined',
      className: 'whitespace-nowrap',
      cell: (m) => (
        <time dateTime={m.joined_at} title={formatDateTime(m.joined_at)}>
          {formatDate(m.joined_at)}
        </time>
      ),
    },
    {
      header: 'Sign-in',
      cell: (m) => (
        <span className="flex flex-wrap gap-1">
          {m.is_2fa_enabled ? <Badge tone="success">2FA</Badge> : <Badge>No 2FA</Badge>}
          {m.has_social_auth ? <Badge tone="info">Social login</Badge> : null}
        </span>
      ),
    },
    {
      header: 'Actions',
      cell: (m) => (
        <RemoveMember
          organizationId={ctx.organizationId}
          organizationName={ctx.organizationName}
          member={m}
          name={userDisplayName(m.user)}
          rule={ctx.rule(m)}
        />
      ),
    },
  ];
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <div className="mb-4 max-w-sm">
      <input
        type="search"
        aria-label="Search members by name or email"
        placeholder="Search by name or email"
        className="h-9 w-full rounded-md border border-gray-300 bg-white px-3 text-sm dark:border-gray-600 dark:bg-gray-900"
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          onSearch(event.target.value);
        }}
      />
    </div>
  );
}

const memberId = (m: Member) => m.id;

/** The organization's members: level changes under the level rules, removal, search in the URL. */
export function MembersPage() {
  const { organizationId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { params } = usePageSearch();
  const { data: organization } = useSuspenseQuery(peopleQueries.organization(organizationId));
  const { data: me } = useQuery(currentUserQuery());
  const { data } = useQuery({
    ...peopleQueries.members(organizationId, { ...params, search: search.search }),
    placeholderData: keepPreviousData,
  });
  const { mutate: setLevel, isPending, variables } = useMutation(peopleMutations.setLevel(organizationId));
  const ownersOnPage = (data?.results ?? []).filter((m) => m.level === 15).length;
  // Making someone an owner is asked first: an owner can delete the organization, and only an
  // owner can take it back.
  const [owning, setOwning] = useState<Member | null>(null);
  const changeLevel = useCallback(
    (m: Member, level: 1 | 8 | 15) =>
      setLevel(
        { userUuid: m.user.uuid, level },
        {
          onSuccess: () => toast.success(`${userDisplayName(m.user)} is now ${levelLabel(level).toLowerCase()}`),
          onError: (error) =>
            toast.error(`Couldn't change the level of ${userDisplayName(m.user)}: ${describeError(error)}`),
        },
      ),
    [setLevel],
  );

  const columns = useMemo(
    () =>
      memberColumns({
        organizationId,
        organizationName: organization.name,
        pendingUuid: isPending ? variables.userUuid : undefined,
        rule: (m) => ({
          callerLevel: organization.membership_level ?? 1,
          isSelf: me !== undefined && m.user.uuid === me.uuid,
          targetLevel: m.level,
          ownerCount: ownersOnPage,
        }),
        setLevel: (m, level) => {
          if (level !== 15) return changeLevel(m, level);
          setOwning(m);
          return false;
        },
      }),
    [organizationId, organization, me, ownersOnPage, changeLevel, isPending, variables],
  );

  if (!data) return null;
  return (
    <>
      <ConfirmDialog
        open={owning !== null}
        onOpenChange={(open) => {
          if (!open) setOwning(null);
        }}
        title={owning ? `Make ${userDisplayName(owning.user)} an owner?` : ''}
        description={
          <>
            An owner can delete <strong>{organization.name}</strong> and change anyone's level. Only an owner can undo
            this.
          </>
        }
      >
        <div className="flex justify-end gap-2">
          <ConfirmDialogCancel asChild>
            <Button>Cancel</Button>
          </ConfirmDialogCancel>
          <Button
            variant="primary"
            onClick={() => {
              if (owning) changeLevel(owning, 15);
              setOwning(null);
            }}
          >
            Make owner
          </Button>
        </div>
      </ConfirmDialog>
      <ListPage
        {...membersHeader}
        data={data}
        columns={columns}
        getRowId={memberId}
        toolbar={
          <SearchBox
            initial={search.search ?? ''}
            onSearch={(value) =>
              void navigate({
                search: (prev) => ({ ...prev, search: value.trim() || undefined, page: 1 }),
                replace: true,
              })
            }
          />
        }
        empty={{
          title: search.search ? 'No member matches' : 'No members',
          children: search.search
            ? `Nobody's name or email contains “${search.search}”.`
            : 'This organization has no members.',
        }}
      />
    </>
  );
}
