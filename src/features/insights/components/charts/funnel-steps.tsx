import type { ReactNode } from 'react';
import { formatDuration, formatNumber, formatPercent } from '../../lib/format';
import type { FunnelStepView, FunnelView } from '../../lib/view-types';
import { colour } from './chart-frame';

export interface FunnelPersonsTarget {
  /** 1-based. */
  step: number;
  dropped: boolean;
  /** The group as shown ("Chrome · Mac OS X"). */
  breakdownValue?: string;
  /** The group as the API names it, where that differs: several breakdowns' JSON list. */
  breakdownKey?: string;
}
export type OnFunnelPersons = (target: FunnelPersonsTarget) => void;

/** A count: a button opening its persons when the page can show them, else text. */
function Count({
  children,
  context,
  onClick,
}: {
  children: ReactNode;
  context: string;
  onClick: (() => void) | undefined;
}) {
  const content = (
    <>
      <span className="sr-only">{context}:</span> {children}
    </>
  );
  if (!onClick) return <span className="tabular-nums">{content}</span>;
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded tabular-nums text-indigo-700 underline decoration-dotted underline-offset-2 hover:decoration-solid focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-300"
    >
      {content}
    </button>
  );
}

function StepNumbers({
  step,
  index,
  prefix,
  breakdownValue,
  breakdownKey,
  onPersons,
}: {
  step: FunnelStepView;
  index: number;
  prefix: string;
  breakdownValue: string | undefined;
  breakdownKey?: string | undefined;
  onPersons: OnFunnelPersons | undefined;
}) {
  const group = {
    ...(breakdownValue !== undefined ? { breakdownValue } : {}),
    ...(breakdownKey !== undefined ? { breakdownKey } : {}),
  };
  const target = (dropped: boolean) =>
    onPersons ? () => onPersons({ step: index + 1, dropped, ...group }) : undefined;
  const times = [
    step.averageTime !== null ? `avg ${formatDuration(step.averageTime)}` : null,
    step.medianTime !== null ? `median ${formatDuration(step.medianTime)}` : null,
  ].filter(Boolean);
  return (
    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 text-xs text-gray-700 dark:text-gray-300">
      <Count context={`${prefix}Step ${index + 1}`} onClick={target(false)}>
        {formatNumber(step.count)} converted
      </Count>
      {index > 0 ? (
        <>
          <span>{formatPercent(step.conversion)} of first</span>
          <span>{formatPercent(step.fromPrevious)} of previous</span>
          <Count context={`${prefix}Step ${index + 1}`} onClick={target(true)}>
            {formatNumber(step.dropped)} dropped off
          </Count>
          {times.length > 0 ? <span>{times.join(' · ')}</span> : null}
        </>
      ) : null}
    </div>
  );
}

function Track({ share, fill }: { share: number; fill: string }) {
  return (
    <div className="h-3 w-full overflow-hidden rounded-sm bg-gray-100 dark:bg-gray-800" aria-hidden="true">
      <div
        className="h-full rounded-sm"
        style={{ width: `${Math.max(0, Math.min(1, share)) * 100}%`, background: fill }}
      />
    </div>
  );
}

/**
 * Funnel steps as bars (the first step's persons are the full width): per step its persons,
 * conversion from the first and from the previous step, drop-off and conversion times. With a
 * breakdown one bar per value under each step. Counts are buttons when `onPersons` is given.
 */
export function FunnelSteps({ view, onPersons }: { view: FunnelView; onPersons?: OnFunnelPersons | undefined }) {
  const groups = view.groups;
  const widest = Math.max(1, ...(groups ?? [{ steps: view.steps }]).map((group) => group.steps[0]?.count ?? 0));
  return (
    <ol className="space-y-4">
      {view.steps.map((step, index) => (
        <li key={index} className="space-y-1.5">
          <p className="text-sm font-medium wrap-anywhere">
            <span className="text-gray-600 dark:text-gray-400">{index + 1}.</span> {step.name}
          </p>
          {groups ? (
            <ul className="space-y-1.5">
              {groups.map((group, g) => {
                const at = group.steps[index];
                if (!at) return null;
                return (
                  <li key={g} className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:items-center sm:gap-3">
                    <span className="flex min-w-0 items-center gap-1.5 text-xs">
                      <span
                        aria-hidden="true"
                        className="inline-block size-2 shrink-0 rounded-full"
                        style={{ background: colour(g) }}
                      />
                      <span className="truncate">{group.breakdownValue}</span>
                    </span>
                    <div className="space-y-1">
                      <Track share={at.count / widest} fill={colour(g)} />
                      <StepNumbers
                        step={at}
                        index={index}
                        prefix={`${group.breakdownValue}, `}
                        breakdownValue={group.breakdownValue}
                        breakdownKey={group.breakdownKey}
                        onPersons={onPersons}
                      />
                    </div>
                  </li>
                );
              })}
            </ul>
          ) : (
            <>
              <Track share={step.count / widest} fill={colour(0)} />
              <StepNumbers step={step} index={index} prefix="" breakdownValue={undefined} onPersons={onPersons} />
            </>
          )}
        </li>
      ))}
    </ol>
  );
}
