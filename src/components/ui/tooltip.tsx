import { cloneElement, useId, useState, type ReactElement, type ReactNode } from 'react';
import { cn } from './cn';

interface TooltipProps {
  content: ReactNode;
  /** One focusable element; it gets `aria-describedby` pointing at the tooltip. */
  children: ReactElement<{
    'aria-describedby'?: string;
    onMouseEnter?: (event: { currentTarget: Element }) => void;
    onMouseLeave?: () => void;
    onFocus?: (event: { currentTarget: Element }) => void;
    onBlur?: () => void;
    onKeyDown?: (event: { key: string }) => void;
  }>;
}

type Align = 'start' | 'center' | 'end';
const alignClasses: Record<Align, string> = {
  start: 'left-0',
  center: 'left-1/2 -translate-x-1/2',
  end: 'right-0',
};
/** Half of the tooltip's widest size (max-w-xs): closer to an edge than this, align to it. */
const EDGE = 170;

/**
 * A small tooltip (WAI-ARIA tooltip pattern): shown on hover and keyboard focus, hidden on
 * leave, blur and Escape, and always the trigger's accessible description. No positioning
 * library: it sits above its trigger, aligned so that it stays in the window.
 */
export function Tooltip({ content, children }: TooltipProps) {
  const id = useId();
  const [align, setAlign] = useState<Align | null>(null);
  const show = (event: { currentTarget: Element }) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const center = rect.left + rect.width / 2;
    setAlign(center > window.innerWidth - EDGE ? 'end' : center < EDGE ? 'start' : 'center');
  };
  const hide = () => setAlign(null);
  return (
    <span className="relative inline-flex">
      {cloneElement(children, {
        'aria-describedby': id,
        onMouseEnter: show,
        onMouseLeave: hide,
        onFocus: show,
        onBlur: hide,
        onKeyDown: (event) => {
          if (event.key === 'Escape') hide();
        },
      })}
      <span
        id={id}
        role="tooltip"
        hidden={align === null}
        className={cn(
          'pointer-events-none absolute bottom-full z-50 mb-2 w-max max-w-xs rounded-md bg-gray-900 px-2.5 py-1.5 text-sm text-white shadow-lg dark:bg-gray-100 dark:text-gray-900',
          alignClasses[align ?? 'center'],
        )}
      >
        {content}
      </span>
    </span>
  );
}
