import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { INVITE_BULK_MAX } from '@/contract/invites';
import type { Pasted, PasteLine, PasteStatus } from './invite-rows';

const STATUS: Record<PasteStatus['kind'], { tone: 'success' | 'danger' | 'neutral' | 'warning'; word: string }> = {
  added: { tone: 'success', word: 'Added' },
  invalid: { tone: 'danger', word: 'Not added' },
  duplicate: { tone: 'neutral', word: 'Duplicate' },
  invited: { tone: 'warning', word: 'Already invited' },
  'no-room': { tone: 'warning', word: 'Not added' },
};

function detail(status: PasteStatus): string {
  switch (status.kind) {
    case 'added':
      return `row ${status.row}`;
    case 'invalid':
      return status.reason;
    case 'duplicate':
      return status.row === null ? 'earlier in the list' : `already in row ${status.row}`;
    case 'invited':
      return 'an invite is pending; sending again replaces it';
    case 'no-room':
      return `one invite sends at most ${INVITE_BULK_MAX} people: kept in the box for the next one`;
  }
}

/** What became of each pasted line; an address with a pending invite can be invited again from here. */
export function PastedLines({
  lines,
  onResend,
  canAdd,
}: {
  lines: PasteLine[];
  onResend: (entry: Pasted) => void;
  canAdd: boolean;
}) {
  if (lines.length === 0) return null;
  return (
    <ul
      aria-label="Pasted lines"
      className="divide-y divide-gray-100 rounded-md border border-gray-200 text-sm dark:divide-gray-800 dark:border-gray-700"
    >
      {lines.map((line, index) => {
        const { tone, word } = STATUS[line.status.kind];
        return (
          // Lines may repeat (a duplicate): their place in the paste is what tells them apart.
          <li key={index} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
            <span className="min-w-0 flex-1 font-mono text-xs wrap-anywhere max-sm:basis-full">{line.text}</span>
            <span className="flex flex-wrap items-center gap-2">
              <Badge tone={tone}>{word}</Badge>
              <span className="text-gray-700 dark:text-gray-300">{detail(line.status)}</span>
              {line.status.kind === 'invited' ? (
                <Button
                  size="sm"
                  disabled={!canAdd}
                  onClick={() => onResend((line.status as Extract<PasteStatus, { kind: 'invited' }>).entry)}
                >
                  Invite again
                </Button>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
