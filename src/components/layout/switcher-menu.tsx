import { lazy, Suspense, useState } from 'react';
import { SwitcherTriggerContent, switcherTriggerClasses, type SwitcherMenuProps } from './switcher-trigger';

export type { SwitcherEntry, SwitcherMenuProps } from './switcher-trigger';

// The menu itself (Radix DropdownMenu) loads right after the page: it is not needed to show it.
const SwitcherMenuPopup = lazy(() => import('./switcher-menu-popup'));

/** A keyboard-accessible menu (Radix DropdownMenu) for jumping between organizations or projects. */
export function SwitcherMenu(props: SwitcherMenuProps) {
  // Until the menu's code is here, a stand-in trigger remembers focus and a request to open.
  const [focused, setFocused] = useState(false);
  const [openRequested, setOpenRequested] = useState(false);
  return (
    <Suspense
      fallback={
        <button
          type="button"
          aria-haspopup="menu"
          aria-expanded="false"
          className={switcherTriggerClasses}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onClick={() => setOpenRequested(true)}
        >
          <SwitcherTriggerContent {...props} />
        </button>
      }
    >
      <SwitcherMenuPopup {...props} takeFocus={focused} startOpen={openRequested} />
    </Suspense>
  );
}
