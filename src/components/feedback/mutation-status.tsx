import { useMutationState } from '@tanstack/react-query';
import { Check, LoaderCircle, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

/** A change that answers sooner is not announced: its result on the page says it. */
export const SHOW_AFTER_MS = 300;
/** Past this, the words say the server is slow rather than that the change was lost. */
export const SLOW_AFTER_MS = 10_000;
const DONE_FOR_MS = 2500;

type Phase = 'idle' | 'working' | 'slow' | 'done' | 'failed';

const WORDS: Record<Exclude<Phase, 'idle'>, string> = {
  working: 'Saving…',
  slow: 'Still saving: the server is slow to answer…',
  done: 'Saved',
  failed: 'Not saved: see the message',
};

/**
 * Every change the app sends (any mutation) says it is working once it has taken more than
 * 300 ms, and then that it is done or that it failed (the failing mutation says why in its own
 * message). Mounted once, at the root; a small status at the foot of the screen.
 */
export function MutationStatus() {
  const mutations = useMutationState({ select: (m) => ({ status: m.state.status, at: m.state.submittedAt }) });
  const pending = mutations.filter((m) => m.status === 'pending');
  const since = pending.length > 0 ? Math.min(...pending.map((m) => m.at)) : null;
  const [phase, setPhase] = useState<Phase>('idle');
  // Whether this run of changes was announced: only then is its end announced too.
  const shown = useRef(false);
  const lastFailed = mutations.length > 0 && mutations.at(-1)!.status === 'error';

  useEffect(() => {
    if (since !== null) {
      const elapsed = Date.now() - since;
      const timers = [
        setTimeout(
          () => {
            shown.current = true;
            setPhase('working');
          },
          Math.max(0, SHOW_AFTER_MS - elapsed),
        ),
        setTimeout(() => setPhase('slow'), Math.max(0, SLOW_AFTER_MS - elapsed)),
      ];
      return () => timers.forEach(clearTimeout);
    }
    if (!shown.current) return undefined;
    shown.current = false;
    setPhase(lastFailed ? 'failed' : 'done');
    const timer = setTimeout(() => setPhase('idle'), DONE_FOR_MS);
    return () => clearTimeout(timer);
  }, [since, lastFailed]);

  const Icon = phase === 'done' ? Check : phase === 'failed' ? TriangleAlert : LoaderCircle;
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4">
      {phase === 'idle' ? null : (
        <span className="inline-flex items-center gap-2 rounded-full bg-gray-900 px-4 py-2 text-sm text-white shadow-lg dark:bg-gray-100 dark:text-gray-900">
          <Icon
            aria-hidden="true"
            className={
              phase === 'working' || phase === 'slow' ? 'size-4 animate-spin motion-reduce:animate-none' : 'size-4'
            }
          />
          {WORDS[phase]}
        </span>
      )}
    </div>
  );
}
